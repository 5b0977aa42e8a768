/**
 * The command that starts the dev server with the API reference's pages (see api-in-dev.ts). A
 * module of its own because the not-found page, in the browser, shows it too.
 */
export const DEV_API_PAGES_COMMAND = 'DEV_API_PAGES=true npm start';
