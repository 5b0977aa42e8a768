/**
 * Writes the options and environment tables of the configuration reference
 * (docs/reference/configuration.md) from the schema `Runtime.init` validates with: each
 * option's type, allowed values and default come from the schema, its effect from the schema's
 * description, the rules between options from the rules the runtime checks, and the variables
 * from the one list of them.
 */
import { z } from 'zod';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema';
import { SERVER_CROSS_FIELD_RULES } from '../../packages/core/src/server/server-options';
import { defaultOf, ENVIRONMENT_VARIABLES } from './environment-variables';

/** The generated part runs from this heading to {@link CONFIGURATION_PAGE_END}. */
export const CONFIGURATION_PAGE_START = '## Options';
export const CONFIGURATION_PAGE_END = '## Options of the first-party packages';

/** What `z.toJSONSchema` gives for one option, with the metadata the schema adds. */
interface OptionSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: OptionSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  items?: OptionSchema;
  properties?: Record<string, OptionSchema>;
  additionalProperties?: OptionSchema | boolean;
  default?: unknown;
  description?: string;
  typeLabel?: string;
  defaultLabel?: string;
  section?: string;
  sectionIntro?: string;
}

/** One row of an options table. */
export interface OptionRow {
  readonly path: string;
  readonly type: string;
  readonly allowed: string;
  readonly default: string;
  readonly effect: string;
}

const RULES_ANCHOR = '[rules between options](#rules-between-options)';

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function orList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function integerRange(schema: OptionSchema): string {
  const low = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum;
  const high =
    schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER
      ? schema.maximum
      : undefined;
  if (low !== undefined && high !== undefined) return `${low}–${high}`;
  if (low !== undefined) return `≥ ${low}`;
  if (high !== undefined) return `≤ ${high}`;
  return 'any';
}

/** The type and the allowed values of a schema, as two cells. */
function describeType(schema: OptionSchema): { type: string; allowed: string } {
  if (schema.const !== undefined) return { type: `\`${literal(schema.const)}\``, allowed: '' };
  if (schema.enum !== undefined) {
    return { type: 'string', allowed: orList(schema.enum.map((value) => `\`${literal(value)}\``)) };
  }
  if (schema.anyOf !== undefined) {
    const parts = schema.anyOf.map((part) => {
      const { type, allowed } = describeType(part);
      if (allowed === 'not empty') return `non-empty ${type}`;
      return allowed === '' || allowed === 'any' ? type : `${type} ${allowed}`;
    });
    return { type: orList(parts), allowed: '' };
  }
  switch (schema.type) {
    case 'integer':
      return { type: 'integer', allowed: integerRange(schema) };
    case 'number':
      return { type: 'number', allowed: integerRange(schema) };
    case 'string':
      return { type: 'string', allowed: schema.minLength ? 'not empty' : 'any' };
    case 'boolean':
      return { type: '`boolean`', allowed: '' };
    case 'array': {
      const item = schema.items ? describeType(schema.items).type : 'unknown';
      return { type: `\`${item.replace(/`/g, '')}[]\``, allowed: '' };
    }
    case 'object': {
      if (schema.properties !== undefined) return { type: 'object', allowed: '' };
      const value =
        typeof schema.additionalProperties === 'object'
          ? describeType(schema.additionalProperties)
          : { type: 'unknown', allowed: '' };
      // A record's values may have a range of their own, such as the bulkhead's limits.
      const valueRange = value.allowed === '' || value.allowed === 'any' ? '' : value.allowed;
      return {
        type: `\`Record<string, ${value.type.replace(/`/g, '')}>\``,
        allowed: valueRange === '' ? '' : `values ${valueRange}`,
      };
    }
    default:
      return { type: 'any', allowed: '' };
  }
}

function defaultCell(schema: OptionSchema): string {
  if (schema.defaultLabel !== undefined) return schema.defaultLabel;
  if (schema.default === undefined) return 'none';
  if (schema.properties !== undefined) return 'see below';
  return `\`${literal(schema.default)}\``;
}

function row(path: string, schema: OptionSchema, ruled: ReadonlySet<string>): OptionRow {
  const described = describeType(schema);
  const type = schema.typeLabel ?? described.type;
  let allowed = schema.typeLabel === undefined ? described.allowed : '';
  if (allowed === '') allowed = '—';
  if (ruled.has(path)) allowed = `${allowed}; see ${RULES_ANCHOR}`;
  return {
    path,
    type,
    allowed,
    default: defaultCell(schema),
    effect: (schema.description ?? '').replace(/\|/g, '\\|'),
  };
}

function table(label: string, rows: readonly OptionRow[]): string {
  return [
    `<div className="table-region" role="region" aria-label="${label}" tabIndex={0}>`,
    '',
    '| Option | Type | Allowed | Default | Effect |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${r.path}\` | ${r.type} | ${r.allowed} | ${r.default} | ${r.effect} |`),
    '',
    '</div>',
  ].join('\n');
}

function optionsJsonSchema(): OptionSchema {
  return z.toJSONSchema(optionsSchema, { io: 'input', unrepresentable: 'any' }) as OptionSchema;
}

/** The option paths that a rule between options involves. */
function ruledPaths(): Set<string> {
  return new Set(
    SERVER_CROSS_FIELD_RULES.flatMap((rule) => rule.keys.map((key) => `options.server.${key}`)),
  );
}

/**
 * Every row of the options tables: the top-level options, then the options of each nested
 * object, by section.
 */
export function optionRows(): { section: string | undefined; intro?: string; rows: OptionRow[] }[] {
  const properties = optionsJsonSchema().properties ?? {};
  const ruled = ruledPaths();
  const top = Object.entries(properties).map(([key, schema]) =>
    row(`options.${key}`, schema, ruled),
  );
  const nested = Object.entries(properties)
    .filter(([, schema]) => schema.properties !== undefined)
    .map(([key, schema]) => ({
      section: schema.section ?? `options.${key}`,
      intro: schema.sectionIntro,
      rows: Object.entries(schema.properties ?? {}).map(([sub, subSchema]) =>
        row(`options.${key}.${sub}`, subSchema, ruled),
      ),
    }));
  return [{ section: undefined, rows: top }, ...nested];
}

function environmentTable(): string {
  return [
    '<div className="table-region" role="region" aria-label="Environment variables" tabIndex={0}>',
    '',
    '| Variable | Read by | Default | Effect |',
    '| --- | --- | --- | --- |',
    ...ENVIRONMENT_VARIABLES.map((variable) => {
      const fallback = defaultOf(variable);
      const shown = fallback === undefined ? 'none' : `\`${fallback}\``;
      return `| \`${variable.name}\` | ${variable.readBy} | ${shown} | ${variable.effect} |`;
    }),
    '',
    '</div>',
  ].join('\n');
}

/** The page's generated part, from `## Options` to the first-party packages' section. */
export function configurationSections(): string {
  const [top, ...nested] = optionRows();
  const parts = [
    CONFIGURATION_PAGE_START,
    'These tables are generated from the schema `Runtime.init` validates `options` with (`packages/core/src/runtime/options-schema.ts`): the type, the allowed values and the default are the schema’s, so the page cannot promise what the runtime refuses.',
    'The times that become timers (`taskTimeoutMs`, `shutdownTimeoutMs`, `startTimeoutMs`, `healthCheckTimeoutMs`, `coordinatorTimeoutMs`, `coordinatorAcquireTimeoutMs`, `bulkhead.maxWaitMs` and `server.stopGraceMs`) allow at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps: Node.js runs a longer one after 1 ms, so `Runtime.init` refuses it, naming the option. <!-- claim: cfg-timer-max --> `server.keepAliveTimeout` becomes a timer too, a second longer than the option, so it allows at most 2147482647 ms: Node.js would cut a longer timer to 2147483647 ms and print a `TimeoutOverflowWarning` for every answer on a kept-alive connection. <!-- claim: cfg-keep-alive-max -->',
    table('Options of Runtime.init', top?.rows ?? []),
  ];
  for (const { section, intro, rows } of nested) {
    parts.push(`### ${section}`);
    if (intro !== undefined) parts.push(intro);
    parts.push(table(section ?? 'Options', rows));
  }
  parts.push(
    '### Rules between options',
    'Some limits relate two options. `Runtime.init` reports a broken rule in its `WEFT_INVALID_CONFIG` error together with every other problem, and the component that owns the options refuses it too when you create it yourself (`new ServerManager(...)` throws `WEFT_INVALID_ARGUMENT`).',
    ...SERVER_CROSS_FIELD_RULES.map(
      (rule) =>
        `- ${rule.keys.map((key) => `\`options.server.${key}\``).join(' and ')}: ${rule.rule}`,
    ),
    '## Environment variables',
    'Every variable a first-party package, `create-weft` or a project it generates reads in its own code. A test fails when the code reads a variable that is not in this table.',
    environmentTable(),
    PG_VARIABLES,
    EXAMPLES_VARIABLES,
  );
  return `${parts.join('\n\n')}\n`;
}

/**
 * What the PostgreSQL driver the two PostgreSQL packages hand their connection string to reads
 * from the environment; packages/memory-postgres/test/faults.test.ts holds it to the driver.
 */
const PG_VARIABLES =
  '`@weft/memory-postgres` and `@weft/coordinator-postgres` hand their `connectionString` to the PostgreSQL driver `pg`, which takes what the string leaves out from libpq’s `PG` variables when they are set, such as the password from `PGPASSWORD` and the port from `PGPORT`. <!-- claim: cfg-pg-variables --> Write every part in the string, or unset them, when the environment may hold values meant for another database.';

/**
 * The variables the site's examples read, in their own code; a unit test fails when an example
 * reads one this paragraph does not name.
 */
export const EXAMPLES_VARIABLES =
  'The examples of this site read variables of their own, always in their own code. Getting started reads `PORT` for its agent’s port, `OPENAI_API_KEY`, `OPENAI_BASE_URL` and `OPENAI_MODEL` for OpenAI, and, when no key is set, `OLLAMA_BASE_URL` and `OLLAMA_MODEL` for a local Ollama; the [Model providers](../model-providers/overview.md) page’s OpenAI provider reads `OPENAI_API_KEY`. The [chat assistant tutorial](../tutorials/chat-assistant.md#point-it-at-a-real-model) reads `CHAT_PORT`, `CHAT_BASE_URL`, `CHAT_API_KEY`, `CHAT_PLANNER_MODEL`, `CHAT_WRITER_MODEL` and `CHAT_DB`; the production guide’s service reads `CHAT_API_TOKEN`; the observability guide’s logger reads `WEFT_LOG_LEVEL` and `APP_VERSION`; the PostgreSQL memory example reads `DATABASE_URL`; and the [Scaling out](../guides/scaling-out.md#run-two-instances-on-one-machine) guide’s instances read `DATABASE_URL`, `PORT`, `HOST`, `INSTANCE` and `WORK_MS`.';
