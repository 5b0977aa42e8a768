import { WeftError } from '../errors/weft-error.js';

/**
 * Throws a clear error when a value is not a zod 4 schema. Weft reads schemas with zod 4's
 * own functions (`z.toJSONSchema`); a zod 3 schema (from a project that still has zod 3
 * installed, passed from JavaScript or through a cast) would otherwise fail deep inside zod
 * with a bare `TypeError` that names neither the schema nor the fix.
 *
 * @param schema - The value passed as a schema.
 * @param owner - Who asked, for the message, such as `ModelManager.getObject`.
 * @throws {@link WeftError} `WEFT_UNSUPPORTED_SCHEMA` naming what was passed.
 */
export function assertZod4Schema(schema: unknown, owner: string): void {
  if (isZod4Schema(schema)) return;
  throw new WeftError(
    'WEFT_UNSUPPORTED_SCHEMA',
    `${owner}: the schema must be a zod 4 schema, got ${describeSchemaValue(schema)}. Weft requires zod 4: install zod@^4 in your project and build your schemas with its \`z\`.`,
  );
}

/** Every zod 4 schema (classic or mini) keeps its internals under `_zod.def`; zod 3 has none. */
function isZod4Schema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const internals = (value as { _zod?: unknown })._zod;
  return (
    typeof internals === 'object' &&
    internals !== null &&
    typeof (internals as { def?: unknown }).def === 'object'
  );
}

/** Names what was passed instead: a zod 3 schema by its type, anything else by its kind. */
function describeSchemaValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object' && typeof value !== 'function') return `a ${typeof value}`;
  const definition = (value as { _def?: unknown })._def;
  const typeName =
    typeof definition === 'object' && definition !== null
      ? (definition as { typeName?: unknown }).typeName
      : undefined;
  if (typeof typeName === 'string') return `a zod 3 schema (${typeName})`;
  const constructorName = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof constructorName === 'string' && constructorName !== 'Object'
    ? `an instance of ${constructorName}, which is not a zod schema`
    : 'an object that is not a zod schema';
}
