/**
 * The HTTP methods a route trigger may use. The plugin checks, the trigger type and the server
 * all read them from here, so a method added here is accepted, typed and mounted alike.
 */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * One of the methods above, as a type.
 *
 * @inline
 */
export type HttpMethod = (typeof HTTP_METHODS)[number];
