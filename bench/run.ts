/**
 * `npm run bench -- <name> [options]`: runs one bench or probe from this folder with the Node
 * flags it needs. Benches print figures and assert nothing; the tests are the gates.
 * `npm run bench` alone lists them.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Bench {
  file: string;
  what: string;
  /** Node flags before the file; every bench loads TypeScript through tsx. */
  node?: string[];
  /** Arguments the bench always gets, before the caller's. */
  args?: string[];
}

const SOURCE = ['--conditions=weft-source'];

const BENCHES: Record<string, Bench> = {
  site: { file: 'site.ts', what: 'Lighthouse: this site against a stock Docusaurus site' },
  interactive: { file: 'interactive.ts', what: 'first tap to answer, against a stock site' },
  'run-panel': { file: 'run-panel.ts', what: 'the Run panel: time to a first answer' },
  'browser-context': {
    file: 'browser-context.ts',
    what: "a browser test's fresh context: processor time, popups off and on",
  },
  dev: { file: 'dev.ts', what: 'the dev server: start-up and rebuild times' },
  core: {
    file: 'core.ts',
    what: "the core's runtime: tasks, memory and garbage",
    node: ['--expose-gc', ...SOURCE],
  },
  memory: { file: 'memory.ts', what: 'the memory stores, PostgreSQL and SQLite', node: SOURCE },
  coordinator: {
    file: 'coordinator.ts',
    what: 'the PostgreSQL coordinator across instances',
    node: SOURCE,
  },
  'mcp-docs': {
    file: 'mcp-docs.ts',
    what: 'the docs MCP server: requests per second',
    node: SOURCE,
  },
  search: { file: 'search.ts', what: 'search quality: the site search and the MCP search' },
  bundle: { file: 'bundle.ts', what: "the build's JavaScript: first load and largest modules" },
  claims: { file: 'claims.ts', what: 'the docs claims: how many, and how many are tested' },
  'core-graph': { file: 'core-graph.ts', what: "the core's import graph, in DOT" },
  probe: {
    file: 'probe/probe.ts',
    what: 'the reliability probe: an agent driven through faults',
    node: SOURCE,
  },
};

const here = path.dirname(fileURLToPath(import.meta.url));

function list(): string {
  const width = Math.max(...Object.keys(BENCHES).map((name) => name.length));
  return Object.entries(BENCHES)
    .map(([name, { what }]) => `  ${name.padEnd(width)}  ${what}`)
    .join('\n');
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const [name, ...rest] = process.argv.slice(2);
  const bench = name === undefined ? undefined : BENCHES[name];
  if (bench === undefined) {
    console.error(
      `${name === undefined ? 'Name a bench' : `No bench named "${name}"`}: npm run bench -- <name>\n${list()}`,
    );
    process.exitCode = name === undefined ? 0 : 1;
  } else {
    const child = spawn(
      process.execPath,
      [
        ...(bench.node ?? []),
        '--import',
        'tsx',
        path.join(here, bench.file),
        ...(bench.args ?? []),
        ...rest,
      ],
      { stdio: 'inherit' },
    );
    child.on('exit', (code, signal) => {
      process.exitCode = code ?? (signal === null ? 1 : 128);
    });
  }
}
