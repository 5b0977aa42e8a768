/**
 * The defaults that options interfaces state in their TSDoc ("Default 10.", "`mcp` by default",
 * "@default 5000") are held to the values the code applies: the schema or constants each
 * package resolves its options with. The comments are what an editor shows on hover and, for
 * the core, what the API reference prints, so a default changed in code must change there too.
 * The TSDoc audit of issue 21 found no wrong default, and added this so none appears.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema';
import { SERVER_DEFAULTS } from '../../packages/core/src/server/server-options';
import { DEFAULTS as OPENAI_DEFAULTS } from '../../packages/model-openai/src/options';
import { resolveOptions as resolveSqlite } from '../../packages/memory-sqlite/src/options';
import {
  DEFAULT_POOL,
  resolveOptions as resolvePostgres,
} from '../../packages/memory-postgres/src/options';
import { resolveOptions as resolveCoordinator } from '../../packages/coordinator-postgres/src/options';
import { resolveOptions as resolveMcp } from '../../packages/plugin-mcp/src/options';
import { resolveOptions as resolveWebSocket } from '../../packages/plugin-websocket/src/options';
import { CHAT_ACCESS_DEFAULTS } from '../../packages/plugin-chat/src/chat-access';

const root = path.resolve(__dirname, '../..');

/** A default a comment states: the option's path and the words that give the value. */
export interface StatedDefault {
  option: string;
  stated: string;
}

/** A word that can only be a value: in code quotes, quoted, a number, or off/none/true/false. */
const VALUE = /^(`[^`]+`|'[^']*'|-?\d[\d_,]*(\.\d+)?|off|none|true|false)$/;

function cleanToken(token: string): string {
  return token.replace(/[.,;:]+$/, '');
}

/**
 * The defaults one comment states. A sub-option's default written inside its parent's comment
 * ("`concurrency` (default 4)") is given under the sub-option's path.
 */
export function defaultsInComment(option: string, comment: string): StatedDefault[] {
  const found: StatedDefault[] = [];
  let text = comment.replace(/\s+/g, ' ');
  const add = (name: string, token: string | undefined) => {
    const stated = cleanToken(token ?? '');
    if (VALUE.test(stated)) found.push({ option: name, stated });
  };
  // `sub` ... (default X), inside a parent's comment: taken out before the parent's own look.
  text = text.replace(/`(\w+)`[^`(]*\(default ([^)]*)\)/g, (_whole, sub: string, value: string) => {
    add(`${option}.${sub}`, value.split(' ')[0]);
    return '';
  });
  for (const match of text.matchAll(/\(`([\w-]+)`, default\)|`([\w-]+)` \(default\)/g)) {
    add(option, `\`${match[1] ?? match[2]}\``);
  }
  for (const match of text.matchAll(/(?<!@)\bdefaults?(?: to)?:? (`[^`]+`|'[^']*'|\S+)/gi)) {
    add(option, match[1]);
  }
  for (const match of text.matchAll(/@default (\S+)/g)) add(option, match[1]);
  for (const match of text.matchAll(/(`[^`]+`|\S+)(?: \([^)]*\))? by default/g)) {
    add(option, match[1]);
  }
  return found;
}

/** Whether the stated words show the value the code applies. */
export function shows(stated: string, actual: unknown): boolean {
  if (stated === 'off') return actual === false || actual === undefined;
  if (stated === 'none') return actual === undefined;
  if (stated === 'true' || stated === 'false') return String(actual) === stated;
  if (/^-?\d/.test(stated)) return Number(stated.replace(/[_,]/g, '')) === actual;
  const inner = stated.replace(/^`|`$/g, '').replace(/^'|'$/g, '');
  if (inner === String(actual) || inner === JSON.stringify(actual)) return true;
  return /^\d/.test(inner) && Number(inner.replace(/_/g, '')) === actual;
}

/** The members of an interface, or of a property's type literal, of a source file. */
function membersOf(
  file: string,
  typeName: string,
  property?: string,
): ts.NodeArray<ts.TypeElement> {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(root, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  let members: ts.NodeArray<ts.TypeElement> | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === typeName) members = node.members;
    if (ts.isTypeAliasDeclaration(node) && node.name.text === typeName) {
      if (ts.isTypeLiteralNode(node.type)) members = node.type.members;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!members) throw new Error(`${file} declares no ${typeName}`);
  if (property === undefined) return members;
  const holder = members.find((member) => member.name?.getText() === property);
  if (
    !holder ||
    !ts.isPropertySignature(holder) ||
    !holder.type ||
    !ts.isTypeLiteralNode(holder.type)
  ) {
    throw new Error(`${typeName}.${property} is not an object type in ${file}`);
  }
  return holder.type.members;
}

/** Every default stated in the TSDoc of a type's properties, nested type literals included. */
function statedDefaults(members: ts.NodeArray<ts.TypeElement>, prefix = ''): StatedDefault[] {
  const found: StatedDefault[] = [];
  for (const member of members) {
    if (!ts.isPropertySignature(member)) continue;
    const name = `${prefix}${member.name.getText()}`;
    const comment = ts
      .getJSDocCommentsAndTags(member)
      .map((doc) => doc.getText())
      .join('\n');
    found.push(...defaultsInComment(name, comment));
    if (member.type && ts.isTypeLiteralNode(member.type)) {
      found.push(...statedDefaults(member.type.members, `${name}.`));
    }
  }
  return found;
}

function valueAt(values: unknown, option: string): unknown {
  return option
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], values);
}

const cases: {
  name: string;
  members: () => ts.NodeArray<ts.TypeElement>;
  values: unknown;
  least: number;
}[] = [
  {
    name: 'RuntimeOptions (core)',
    members: () => membersOf('packages/core/src/runtime/config.ts', 'RuntimeOptions'),
    values: optionsSchema.parse({}),
    least: 16,
  },
  {
    name: 'ServerManagerConfig (core)',
    members: () => membersOf('packages/core/src/server/server-config.ts', 'ServerManagerConfig'),
    values: SERVER_DEFAULTS,
    least: 10,
  },
  {
    name: 'OpenAIModelProviderOptions (model-openai)',
    members: () => membersOf('packages/model-openai/src/options.ts', 'OpenAIModelProviderOptions'),
    values: {
      ...OPENAI_DEFAULTS,
      apiKey: undefined,
      headers: undefined,
      defaultTemperature: undefined,
    },
    least: 9,
  },
  {
    name: 'SqliteMemoryProviderOptions (memory-sqlite)',
    members: () =>
      membersOf('packages/memory-sqlite/src/options.ts', 'SqliteMemoryProviderOptions'),
    values: resolveSqlite({ path: ':memory:' }),
    least: 2,
  },
  {
    name: 'PostgresPoolOptions (memory-postgres)',
    members: () => membersOf('packages/memory-postgres/src/options.ts', 'PostgresPoolOptions'),
    values: DEFAULT_POOL,
    least: 5,
  },
  {
    name: 'PostgresMemoryProviderOptions (memory-postgres)',
    members: () =>
      membersOf('packages/memory-postgres/src/options.ts', 'PostgresMemoryProviderOptions'),
    values: resolvePostgres({ connectionString: 'postgres://weft@localhost:5432/weft' }),
    least: 2,
  },
  {
    name: 'PostgresSpaceCoordinatorOptions (coordinator-postgres)',
    members: () =>
      membersOf('packages/coordinator-postgres/src/options.ts', 'PostgresSpaceCoordinatorOptions'),
    values: resolveCoordinator({ connectionString: 'postgres://weft@localhost:5432/weft' }),
    least: 9,
  },
  {
    name: 'McpPluginOptions (plugin-mcp)',
    members: () => membersOf('packages/plugin-mcp/src/options.ts', 'McpPluginOptions'),
    values: resolveMcp({
      servers: [{ name: 'files', command: 'node', args: [], tools: ['read'] }],
    }),
    least: 6,
  },
  {
    name: 'WebSocketPluginOptions (plugin-websocket)',
    members: () => membersOf('packages/plugin-websocket/src/options.ts', 'WebSocketPluginOptions'),
    values: resolveWebSocket({}),
    least: 14,
  },
  {
    name: 'ChatAccessOptions (plugin-chat, also plugin-websocket)',
    members: () => membersOf('packages/plugin-chat/src/chat-access.ts', 'ChatAccessOptions'),
    values: CHAT_ACCESS_DEFAULTS,
    least: 4,
  },
];

describe('TSDoc defaults of options interfaces', () => {
  it('finds the defaults a comment states, in each of the phrasings the packages use', () => {
    expect(defaultsInComment('a', '/** Most steps. Default 10. */')).toEqual([
      { option: 'a', stated: '10' },
    ]);
    expect(
      defaultsInComment('s', '/** `concurrency` (default 4) and `maxQueueSize` (default 1000). */'),
    ).toEqual([
      { option: 's.concurrency', stated: '4' },
      { option: 's.maxQueueSize', stated: '1000' },
    ]);
    expect(defaultsInComment('m', '/** `always` (default), `never`. */')).toEqual([
      { option: 'm', stated: '`always`' },
    ]);
    expect(defaultsInComment('p', '/**\n * Pool size.\n *\n * @default 10\n */')).toEqual([
      { option: 'p', stated: '10' },
    ]);
    expect(defaultsInComment('b', '/** The largest; 1048576 (1 MiB) by default. */')).toEqual([
      { option: 'b', stated: '1048576' },
    ]);
    // Prose that only mentions a default names no value.
    expect(defaultsInComment('f', '/** The fetch to use. Default: the global `fetch`. */')).toEqual(
      [],
    );
  });

  it('compares stated words with values, and a wrong one fails [claim:cg-tsdoc-checks]', () => {
    expect(shows('`127.0.0.1`', '127.0.0.1')).toBe(true);
    expect(shows("`'1mb'`", '1mb')).toBe(true);
    expect(shows('`[]`', [])).toBe(true);
    expect(shows('120000', 120_000)).toBe(true);
    expect(shows('off', false)).toBe(true);
    expect(shows('10', 11)).toBe(false);
    expect(shows('`drain`', 'cancel')).toBe(false);
  });

  it.each(cases.map((entry) => [entry.name, entry] as const))(
    '%s states the defaults the code applies [claim:prod-outage-coordinator] [claim:scaling-restart-backoff] [claim:tsdoc-coordinator-default-schema] [claim:tsdoc-coordinator-default-pool-size] [claim:tsdoc-coordinator-default-connect-timeout-ms] [claim:tsdoc-coordinator-default-statement-timeout-ms] [claim:tsdoc-coordinator-default-acquire-timeout-ms] [claim:tsdoc-coordinator-default-poll-interval-ms] [claim:tsdoc-coordinator-default-sweep-interval-ms] [claim:tsdoc-coordinator-default-reconnect-delay-ms] [claim:tsdoc-coordinator-default-reconnect-max-delay-ms] [claim:tsdoc-options-default-max-steps] [claim:tsdoc-options-default-task-timeout-ms] [claim:tsdoc-options-default-get-object-retries] [claim:tsdoc-options-default-pipeline-review] [claim:tsdoc-options-default-review-final-step] [claim:tsdoc-options-default-related-memories] [claim:tsdoc-options-default-related-memory-chars] [claim:tsdoc-options-default-scheduler] [claim:tsdoc-options-default-bulkhead] [claim:tsdoc-options-default-analytics] [claim:tsdoc-options-default-handle-signals] [claim:tsdoc-options-default-shutdown] [claim:tsdoc-options-default-shutdown-timeout-ms] [claim:tsdoc-options-default-start-timeout-ms] [claim:tsdoc-options-default-check-health-on-start] [claim:tsdoc-options-default-health-check-timeout-ms] [claim:tsdoc-options-default-coordinator-timeout-ms] [claim:tsdoc-options-default-coordinator-acquire-timeout-ms] [claim:tsdoc-server-default-port] [claim:tsdoc-server-default-host] [claim:tsdoc-server-default-allowed-hosts] [claim:tsdoc-server-default-cors] [claim:tsdoc-server-default-body-limit] [claim:tsdoc-server-default-max-json-depth] [claim:tsdoc-server-default-headers-timeout] [claim:tsdoc-server-default-request-timeout] [claim:tsdoc-server-default-keep-alive-timeout] [claim:tsdoc-server-default-stop-grace-ms] [claim:tsdoc-postgres-default-max] [claim:tsdoc-postgres-default-connection-timeout-ms] [claim:tsdoc-postgres-default-statement-timeout-ms] [claim:tsdoc-postgres-default-idle-timeout-ms] [claim:tsdoc-postgres-default-reconnect-timeout-ms] [claim:tsdoc-postgres-default-schema] [claim:tsdoc-postgres-default-id] [claim:tsdoc-sqlite-default-id] [claim:tsdoc-sqlite-default-busy-timeout-ms] [claim:tsdoc-openai-default-id] [claim:tsdoc-openai-default-timeout-ms] [claim:tsdoc-openai-default-max-retries] [claim:tsdoc-openai-default-retry-base-delay-ms] [claim:tsdoc-openai-default-total-timeout-ms] [claim:tsdoc-openai-default-max-response-bytes] [claim:tsdoc-mcp-default-id] [claim:tsdoc-mcp-default-call-timeout-ms] [claim:tsdoc-mcp-default-connect-timeout-ms] [claim:tsdoc-mcp-default-max-result-bytes] [claim:tsdoc-mcp-default-reconnect-delay-ms] [claim:tsdoc-mcp-default-max-reconnect-delay-ms] [claim:tsdoc-ws-options-defaults] [claim:cg-tsdoc-checks]',
    (_name, entry) => {
      const stated = statedDefaults(entry.members());
      expect(stated.length, 'defaults found in the comments').toBeGreaterThanOrEqual(entry.least);
      const wrong = stated
        .map((claim) => ({ ...claim, actual: valueAt(entry.values, claim.option) }))
        .filter((claim) => !shows(claim.stated, claim.actual));
      expect(wrong).toEqual([]);
    },
  );
});
