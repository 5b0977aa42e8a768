/**
 * The configuration reference (docs/reference/configuration.md, "Options", "Scheduler options",
 * "Server options") is generated from the options schema; these checks hold what it shows to
 * what the schema does: a row for every option and none for an option that does not exist, the
 * default the schema applies, and an allowed range whose ends the schema accepts and whose
 * outside it refuses. The generated text itself is compared with the committed page in
 * errors-registry.test.ts (every generated reference at once).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RuntimeConfig } from '../../packages/core/src/runtime/config';
import { ServerManager } from '../../packages/core/src/server/server-manager';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema';
import { resolveOptions as resolvePostgresOptions } from '../../packages/memory-postgres/src/options';
import { resolveOptions as resolveSqliteOptions } from '../../packages/memory-sqlite/src/options';
import { codeRows, readDoc } from './support/doc-tables';

/** Unwraps `.default()`, `.optional()` and similar wrappers to the schema inside. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const inner = (current.def as { innerType?: z.ZodType }).innerType;
    if (!inner) return current;
    current = inner;
  }
}

/** Every option path with its schema: `options.<key>`, and `options.<key>.<sub>` for objects. */
function optionSchemas(): Map<string, z.ZodType> {
  const schemas = new Map<string, z.ZodType>();
  for (const [key, schema] of Object.entries(optionsSchema.shape)) {
    schemas.set(`options.${key}`, schema as z.ZodType);
    const inner = unwrap(schema as z.ZodType);
    if (inner.def.type === 'object') {
      for (const [sub, subSchema] of Object.entries((inner as z.ZodObject).shape)) {
        schemas.set(`options.${key}.${sub}`, subSchema as z.ZodType);
      }
    }
  }
  return schemas;
}

/** Reads a backticked default such as `10`, `'always'` or `[]` as a value. */
function parseDefault(cell: string): unknown {
  const code = /^`([^`]+)`$/.exec(cell)?.[1];
  if (code === undefined) return undefined;
  return JSON.parse(code.replace(/'/g, '"'));
}

/** Sets one option in an otherwise empty options object. */
function withOption(path: string, value: unknown): Record<string, unknown> {
  const [, key, sub] = path.split('.');
  return sub === undefined ? { [key!]: value } : { [key!]: { [sub]: value } };
}

/**
 * Every field of `Runtime.init`'s configuration. `satisfies` makes the type check fail when a
 * field is added to RuntimeConfig and not here, or one listed here no longer exists, so the
 * parts table below cannot fall behind the type.
 */
const PARTS = {
  models: true,
  memory: true,
  plugins: true,
  capabilityAliases: true,
  coordinator: true,
  options: true,
} as const satisfies Record<keyof RuntimeConfig, true>;

/** The rows of the page's "The parts" table, by field. */
function partRows(page: string): Map<string, string[]> {
  const start = page.indexOf('## The parts');
  const end = page.indexOf('\n## ', start + 1);
  return codeRows(page.slice(start, end));
}

describe('configuration reference page', () => {
  const rows = codeRows(readDoc('reference/configuration.md'));
  const documented = [...rows.keys()].filter((key) => key.startsWith('options.'));
  const schemas = optionSchemas();

  it('has a row for every option of the schema, including the server and scheduler ones [claim:stability-options-public] [claim:cfg-lists-everything]', () => {
    expect([...schemas.keys()]).toContain('options.server.port');
    expect([...schemas.keys()]).toContain('options.scheduler.concurrency');
    expect([...schemas.keys()].filter((path) => !rows.has(path))).toEqual([]);
  });

  it('has no row for an option the schema does not know', () => {
    expect(documented.filter((path) => !schemas.has(path))).toEqual([]);
  });

  it('has no option for HTTPS or certificates, and the server speaks plain HTTP [claim:prod-no-https]', async () => {
    const tlsWords = /https|tls|ssl|cert|pfx|passphrase|(^|\.)(key|ca)$/i;
    expect([...schemas.keys()].filter((path) => tlsWords.test(path))).toEqual([]);
    const server = new ServerManager({ port: 0 });
    await server.start();
    try {
      expect(server.url).toMatch(/^http:\/\//);
      const answer = await fetch(`${server.url}/nothing-here`);
      expect(answer.status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('has no setting that expires memories, in the runtime or the first-party stores [claim:prod-no-expiry]', () => {
    const expiryWords = /retention|retain|expir|ttl|max-?age|prune|purge/i;
    const sqlite = resolveSqliteOptions({ path: ':memory:' });
    const postgres = resolvePostgresOptions({
      connectionString: 'postgres://weft:secret@localhost:5432/weft',
    });
    const names = [
      ...schemas.keys(),
      ...Object.keys(sqlite),
      ...Object.keys(postgres),
      ...Object.keys(postgres.pool),
    ];
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => expiryWords.test(name))).toEqual([]);
  });

  it('shows the default the schema applies for every option that is not an object [claim:task-planner-memory-limits] [claim:task-timeout-default] [claim:prod-slow-clients] [claim:prod-bulkhead-wait] [claim:stability-options-public] [claim:cfg-lists-everything] [claim:cfg-options-optional]', () => {
    const defaults = optionsSchema.parse({}) as Record<string, unknown>;
    let checked = 0;
    for (const path of schemas.keys()) {
      const [, key, sub] = path.split('.');
      const value = sub === undefined ? defaults[key!] : (defaults[key!] as never)?.[sub];
      if (value === undefined) continue;
      if ([...schemas.keys()].some((other) => other.startsWith(`${path}.`))) {
        // An object option with defaults inside: its row refers to its own table.
        expect(rows.get(path)?.[2]).toBe('see below');
        continue;
      }
      // Columns: type, allowed, default, effect.
      expect({ path, shown: parseDefault(rows.get(path)?.[2] ?? '') }).toEqual({
        path,
        shown: value,
      });
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('shows integer ranges whose ends the schema accepts and whose outside it refuses, for an option or the values of a record option', () => {
    let checked = 0;
    for (const path of schemas.keys()) {
      const allowed = rows.get(path)?.[1] ?? '';
      const range = /^(values )?(?:≥ (\d+)|(\d+)–(\d+))/.exec(allowed);
      if (range === null) continue;
      const low = Number(range[2] ?? range[3]);
      const high = range[4] === undefined ? undefined : Number(range[4]);
      // A record's range is its values': one entry is set to the value.
      const given = (value: number) => (range[1] === undefined ? value : { 'plugin:some': value });
      const accepts = (value: number) =>
        optionsSchema.safeParse(withOption(path, given(value))).success;
      expect({ path, low: accepts(low), below: accepts(low - 1) }).toEqual({
        path,
        low: true,
        below: false,
      });
      if (high !== undefined) {
        expect({ path, high: accepts(high), above: accepts(high + 1) }).toEqual({
          path,
          high: true,
          above: false,
        });
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  it('lists every part of the configuration, the coordinator included, and no other [claim:cfg-lists-everything]', () => {
    const parts = partRows(readDoc('reference/configuration.md'));
    expect([...parts.keys()].sort()).toEqual(Object.keys(PARTS).sort());
    // Columns: type, required, effect.
    expect(parts.get('coordinator')?.slice(0, 2)).toEqual(['`SpaceCoordinator`', 'no']);
  });

  it('lists each rule between options, and marks the options it relates', () => {
    const page = readDoc('reference/configuration.md');
    expect(page).toContain('### Rules between options');
    expect(rows.get('options.server.requestTimeout')?.[1]).toContain('#rules-between-options');
  });
});
