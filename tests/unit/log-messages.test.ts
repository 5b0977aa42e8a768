/**
 * The observability guide (docs/guides/observability.md) lists every log line the core writes,
 * with its level, component and fields: a line added to, removed from or moved to another level
 * or component in packages/core/src, or given a field, without the table following fails here,
 * and so does a field the table lists that the line never carries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeRows, readDoc } from './support/doc-tables';

const CORE_SOURCES = join(__dirname, '..', '..', 'packages', 'core', 'src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(directory, entry.name)]
        : [],
  );
}

/** One `logger.<level>(..., message)` call of the core. */
interface LogCall {
  readonly message: string;
  readonly level: string;
  readonly file: string;
  /** The text of the call's arguments. */
  readonly args: string;
}

/**
 * Every `logger.<level>(..., message)` call of the core. A template literal's message is kept up
 * to its first placeholder and ends with `…`; the page shows such a message with the placeholder
 * spelled out, and is matched by that prefix.
 */
function logCalls(): LogCall[] {
  const calls: LogCall[] = [];
  const call = /\blogger\??\.(trace|debug|info|warn|error|fatal)\(([\s\S]*?)\);/g;
  for (const file of sourceFiles(CORE_SOURCES)) {
    for (const [, level, args] of readFileSync(file, 'utf8').matchAll(call)) {
      // pino takes the message as the last string argument.
      const last = [...(args ?? '').matchAll(/'([^']*)'|`([^`]*)`/g)].at(-1);
      if (last === undefined) throw new Error(`${file}: a logger call without a message`);
      const message = last[1] ?? `${(last[2] ?? '').split('${')[0]}…`;
      calls.push({ message, level: level as string, file, args: args ?? '' });
    }
  }
  return calls;
}

/** Every logged message, with its level. */
function loggedMessages(): Map<string, string> {
  return new Map(logCalls().map(({ message, level }) => [message, level]));
}

/**
 * The component of the lines a file logs: the runtime gives each part a child logger with a
 * `component` field (runtime.ts), and its own lines, and the signal handler's, have none.
 */
const COMPONENT_OF_FILE: Record<string, string> = {
  'runtime/runtime.ts': 'none',
  'platform/node.ts': 'none',
  'server/server-manager.ts': 'server',
  'pipeline/task-runner.ts': 'pipeline',
  'models/model-manager.ts': 'models',
  'analytics/analytics-manager.ts': 'analytics',
  'memory/memory-manager.ts': 'memory',
  'scheduler/bounded-coordinator.ts': 'coordinator',
};

/**
 * The field names a call writes itself: the keys of the object literal it passes first (and
 * `error` for a spread or a direct `errorLogFields(...)`). Spreads of other values are left out,
 * since their keys are not in the source.
 */
function literalFields(args: string): string[] {
  const text = args.trim();
  if (text.startsWith('errorLogFields(')) return ['error'];
  if (!text.startsWith('{')) return [];
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | undefined;
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      if (depth === 1) current += char;
      continue;
    }
    if (char === "'" || char === '`' || char === '"') quote = char;
    if ('{[('.includes(char)) depth += 1;
    if ('}])'.includes(char)) depth -= 1;
    if (depth === 0) break;
    if (depth === 1 && char === ',') {
      parts.push(current);
      current = '';
    } else if (
      depth >= 1 &&
      !(depth === 1 && char === '{' && current === '' && parts.length === 0)
    ) {
      current += char;
    }
  }
  parts.push(current);
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .flatMap((part) => {
      if (part.startsWith('...')) return part.startsWith('...errorLogFields(') ? ['error'] : [];
      const name = /^([A-Za-z_$][\w$]*)\s*(?::|$)/.exec(part)?.[1];
      if (name === undefined)
        throw new Error(`cannot read the log field of ${JSON.stringify(part)}`);
      return [name];
    });
}

/**
 * The fields that the spreads of a call's object write, by the name of the spread value: their
 * keys are not in the call's source, so each is listed here from the code that builds it.
 */
const SPREAD_FIELDS: Record<string, readonly string[]> = {
  // task-runner.ts, "task timed out": the running step, when it was one.
  step: ['step'],
  // task-runner.ts, "step failed": errorLogFields or returnedFailureFields.
  fields: ['error', 'code', 'docsUrl'],
  // server-manager.ts, "request failed": the answer's code, when the error has none.
  codes: ['code', 'docsUrl'],
  // server-manager.ts: a RefusedConnection (connection-limits.ts).
  refused: ['address', 'open', 'limit'],
};

/**
 * Every field a call may write: its literal fields, those of its spreads, `code` and `docsUrl`
 * beside an `error` (errorLogFields), and the fields the logger of its file binds.
 */
function writtenFields(args: string, bound: readonly string[]): string[] {
  const names = [...bound, ...literalFields(args)];
  for (const [, spread] of args.matchAll(/\.\.\.([A-Za-z_$][\w$]*)\s*[,}]/g)) {
    const fields = SPREAD_FIELDS[spread as string];
    if (fields === undefined) {
      throw new Error(
        `the fields of the spread ...${spread} are unknown; add them to SPREAD_FIELDS`,
      );
    }
    names.push(...fields);
  }
  if (names.includes('error')) names.push('code', 'docsUrl');
  return names;
}

/**
 * The fields the logger of a file binds to its task's lines: the runner's task logger, and the
 * task views of the models and the analytics (their lines carry them when made in a task).
 */
const BOUND_OF_FILE: Record<string, readonly string[]> = {
  'pipeline/task-runner.ts': ['taskId', 'space'],
  'models/model-manager.ts': ['taskId', 'space'],
  'analytics/analytics-manager.ts': ['taskId', 'space'],
};

/** The backticked names of a table cell, or none for `none`. */
function namesIn(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** Whether a message of the page is the logged one, or spells out a template's placeholders. */
function matches(documented: string, logged: string): boolean {
  return logged.endsWith('…') ? documented.startsWith(logged.slice(0, -1)) : documented === logged;
}

describe('log lines in the observability guide', () => {
  const logged = loggedMessages();
  const rows = codeRows(readDoc('guides/observability.md'));
  // Rows of the log table: message, then level, component, fields, meaning.
  const documented = new Map(
    [...rows]
      .filter(([, cells]) => cells.length === 4)
      .map(([message, cells]) => [message, cells[0]]),
  );

  it('finds the log calls of the core', () => {
    expect(logged.get('runtime started')).toBe('info');
  });

  it('documents every line the core writes, at its level [claim:obs-lines-table]', () => {
    const missing = [...logged]
      .filter(
        ([message, level]) =>
          ![...documented].some(([row, rowLevel]) => matches(row, message) && rowLevel === level),
      )
      .map(([message, level]) => `${level}: ${message}`);
    expect(missing).toEqual([]);
  });

  it('gives each line the component of the part that logs it, and every field the call writes [claim:obs-lines-table]', () => {
    const cells = new Map(
      [...rows].filter(([, row]) => row.length === 4).map(([message, row]) => [message, row]),
    );
    const problems: string[] = [];
    for (const { message, file, args } of logCalls()) {
      const row = [...cells].find(([documented]) => matches(documented, message))?.[1];
      if (row === undefined) continue; // the test above reports it
      const [, component = '', fields = ''] = row;
      const where = relative(CORE_SOURCES, file).split(sep).join('/');
      const expected = COMPONENT_OF_FILE[where];
      if (expected === undefined) {
        problems.push(`${where}: logs "${message}"; add its component to COMPONENT_OF_FILE`);
        continue;
      }
      if (component !== expected) {
        problems.push(`"${message}": the table says component ${component}, the code ${expected}`);
      }
      const documented = new Set(namesIn(fields));
      // A task's lines carry its id and space through the task's child logger.
      const bound = where === 'pipeline/task-runner.ts' ? ['taskId', 'space'] : [];
      for (const field of [...bound, ...literalFields(args)]) {
        if (!documented.has(field)) problems.push(`"${message}": field ${field} is not listed`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists for each line only fields the core writes on it [claim:obs-lines-table]', () => {
    const written = new Map<string, Set<string>>();
    for (const { message, file, args } of logCalls()) {
      const where = relative(CORE_SOURCES, file).split(sep).join('/');
      const fields = written.get(message) ?? new Set<string>();
      for (const field of writtenFields(args, BOUND_OF_FILE[where] ?? [])) fields.add(field);
      written.set(message, fields);
    }
    const problems: string[] = [];
    for (const [documented, cells] of rows) {
      if (cells.length !== 4) continue; // another table of the page
      const [, , fields = ''] = cells;
      const logged = [...written].find(([message]) => matches(documented, message))?.[1];
      if (logged === undefined) continue; // the test below reports it
      for (const field of namesIn(fields)) {
        if (!logged.has(field)) problems.push(`"${documented}": lists ${field}, never written`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every component the runtime gives a child logger in the prose above the table [claim:obs-task-fields]', () => {
    const runtime = readFileSync(join(CORE_SOURCES, 'runtime', 'runtime.ts'), 'utf8');
    const components = [...runtime.matchAll(/child\(\{ component: '([^']+)' \}\)/g)].map(
      (match) => match[1] as string,
    );
    expect(components).toContain('pipeline');
    const prose = /^Components log through child loggers.*$/m.exec(
      readDoc('guides/observability.md'),
    )?.[0];
    expect(prose).toBeDefined();
    const named = new Set(namesIn(prose ?? ''));
    expect(components.filter((component) => !named.has(component))).toEqual([]);
  });

  it("counts in the prose above the table the runtime's own lines that name one part in component, and lists them with it [claim:obs-part-component-lines]", () => {
    const runtimeFile = join('runtime', 'runtime.ts');
    const partLines = [
      ...new Set(
        logCalls()
          .filter(
            ({ file, args }) =>
              file.endsWith(runtimeFile) && literalFields(args).includes('component'),
          )
          .map(({ message }) => message),
      ),
    ];
    expect(partLines.length).toBeGreaterThan(0);
    const prose = /^Components log through child loggers.*$/m.exec(
      readDoc('guides/observability.md'),
    )?.[0];
    const counted = /except the (\w+) below about one part/.exec(prose ?? '')?.[1];
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(counted === undefined ? -1 : words.indexOf(counted)).toBe(partLines.length);
    for (const message of partLines) {
      const row = [...rows].find(([documented]) => matches(documented, message))?.[1];
      expect(row?.[1], message).toBe('none');
      expect(namesIn(row?.[2] ?? ''), message).toContain('component');
    }
  });

  it('gives the coordinator lines about a late grant or a release the space and ticket, not the task id [claim:obs-coord-ticket-lines]', () => {
    const coordinatorFile = join('scheduler', 'bounded-coordinator.ts');
    const spaceLines = logCalls().filter(
      ({ file, message }) =>
        file.endsWith(coordinatorFile) && /^coordinator (granted|release)/.test(message),
    );
    expect(spaceLines.map(({ message }) => message)).toHaveLength(3);
    for (const { message, args } of spaceLines) {
      const fields = literalFields(args);
      expect(fields, message).toEqual(expect.arrayContaining(['space', 'ticket']));
      expect(fields, message).not.toContain('taskId');
    }
  });

  it('documents no line the core does not write [claim:obs-lines-table]', () => {
    const unknown = [...documented.keys()].filter(
      (row) => ![...logged.keys()].some((message) => matches(row, message)),
    );
    expect(unknown).toEqual([]);
  });
});

/** The packages whose lines the page lists under a heading of their own, by package folder. */
const PACKAGES: Record<string, string> = {
  'plugin-chat': '@weft/plugin-chat',
  'plugin-websocket': '@weft/plugin-websocket',
  'plugin-mcp': '@weft/plugin-mcp',
  'coordinator-postgres': '@weft/coordinator-postgres',
};

/**
 * The fields of the calls that pass a variable rather than an object literal, by message: the
 * MCP plugin's cut lines pass the server's name and a StreamCut (bounded-fetch.ts), whose
 * `requestIds` a cut POST answer has; the stream cut is only ever a GET's (idle, lifetime).
 */
const VARIABLE_FIELDS: Record<string, readonly string[]> = {
  'MCP server answer cut': ['server', 'method', 'reason', 'limit', 'requestIds'],
  'MCP server stream cut; the SDK opens a new one': ['server', 'method', 'reason', 'limit'],
};

/**
 * Every log call of a package, whatever holds the logger (`runtime.logger`, `options.logger`,
 * `settings.logger()`, `log`), up to the `);` that ends its line, since a message may hold one.
 * A template literal's message keeps its placeholders as `${`.
 */
function packageLogCalls(folder: string): { message: string; level: string; fields: string[] }[] {
  const call =
    /\b(?:logger|log)(?:\(\))?\s*\??\.(trace|debug|info|warn|error|fatal)\(([\s\S]*?)\);[ \t]*\n/g;
  const directory = join(__dirname, '..', '..', 'packages', folder, 'src');
  return sourceFiles(directory).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(call)].map(([, level, args = '']) => {
      const last = [...args.matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].at(-1);
      if (last === undefined) throw new Error(`${file}: a logger call without a message`);
      const message = last[1] ?? last[2] ?? (last[3] as string);
      return {
        message,
        level: level as string,
        fields: [
          ...literalFields(args),
          ...(VARIABLE_FIELDS[message] ?? []),
          // errorLogFields adds the Weft code and its docs address beside the error.
          ...(args.includes('...errorLogFields(') ? ['code', 'docsUrl'] : []),
        ],
      };
    }),
  );
}

/** Whether a row's message is the logged one, a template's placeholder written as `<name>`. */
function matchesTemplate(documented: string, logged: string): boolean {
  const pattern = logged
    .split(/\$\{[^}]*\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('<[a-z]+>');
  return new RegExp(`^${pattern}$`).test(documented);
}

/** The rows of the table under the page's `#### `name`` heading: message, then its cells. */
function packageRows(name: string): Map<string, string[]> {
  const page = readDoc('guides/observability.md');
  const start = page.indexOf(`#### \`${name}\``);
  if (start < 0) return new Map();
  const rest = page.slice(start + 1);
  const end = rest.search(/\n#{2,4} /);
  return codeRows(end < 0 ? rest : rest.slice(0, end));
}

describe('log lines of the first-party packages in the observability guide', () => {
  it('finds the log calls of the packages', () => {
    expect(packageLogCalls('plugin-chat').map((call) => call.message)).toContain(
      'chat: too many messages in flight; refused',
    );
  });

  for (const [folder, name] of Object.entries(PACKAGES)) {
    it(`lists every line ${name} writes, at its level and with its fields, and no other [claim:obs-package-lines-table]`, () => {
      const calls = packageLogCalls(folder);
      const rows = packageRows(name);
      const problems: string[] = [];
      for (const { message, level, fields } of calls) {
        const row = [...rows].find(([documented]) => matchesTemplate(documented, message))?.[1];
        if (row === undefined) {
          problems.push(`missing: ${level}: ${message}`);
          continue;
        }
        const [rowLevel = '', rowFields = ''] = row;
        if (rowLevel !== level) problems.push(`"${message}": level ${rowLevel}, the code ${level}`);
        const listed = new Set(namesIn(rowFields));
        for (const field of fields) {
          if (!listed.has(field)) problems.push(`"${message}": field ${field} is not listed`);
        }
      }
      for (const [documented, [, rowFields = ''] = []] of rows) {
        const own = calls.filter(({ message }) => matchesTemplate(documented, message));
        if (own.length === 0) {
          problems.push(`listed but never written: ${documented}`);
          continue;
        }
        const written = new Set(own.flatMap(({ fields }) => fields));
        for (const field of namesIn(rowFields)) {
          if (!written.has(field)) problems.push(`"${documented}": lists ${field}, never written`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe('the task fields of the first-party packages’ lines', () => {
  it('gives space with taskId, and taskId with a ticket, on every package line but those the guide names [claim:obs-task-lines-exceptions]', () => {
    const calls = Object.keys(PACKAGES).flatMap((folder) => packageLogCalls(folder));
    const withoutSpace = calls
      .filter(({ fields }) => fields.includes('taskId') && !fields.includes('space'))
      .map(({ message }) => message);
    const withoutTaskId = calls
      .filter(({ fields }) => fields.includes('ticket') && !fields.includes('taskId'))
      .map(({ message }) => message);
    expect(new Set(withoutSpace)).toEqual(
      new Set([
        'chat: task ended without a reply',
        'websocket: no reply in time; the client was told',
        'websocket: task ended without a reply',
      ]),
    );
    expect(new Set(withoutTaskId)).toEqual(
      new Set(['could not record the end of a task; giving this instance’s spaces up']),
    );
    // The guide names each of them, by the start of its message, in the prose above the tables.
    const prose = /^Components log through child loggers.*$/m.exec(
      readDoc('guides/observability.md'),
    )?.[0];
    for (const message of [...withoutSpace, ...withoutTaskId]) {
      expect(prose, message).toContain(`\`${message.split(';')[0]}`);
    }
  });
});
