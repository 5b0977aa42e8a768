/**
 * The ranking of `search_docs` (src/search.ts) on pages written for each rule, so a rule that
 * breaks names itself here rather than as a moved result on the real docs.
 */
import { describe, expect, it } from 'vitest';
import {
  closestMatches,
  DocsSearch,
  snippetOf,
  snippetText,
  splitSections,
  tableDefinitions,
  type SearchablePage,
} from '../src/search.js';

const page = (
  path: string,
  title: string,
  markdown: string,
  kind: 'guide' | 'api' = 'guide',
): SearchablePage => ({
  path,
  title,
  description: '',
  section: kind === 'api' ? 'API' : 'Guides',
  kind,
  markdown,
});

const pages = [
  page(
    '/docs/memory/',
    'Memory providers',
    '# Memory providers\n\nHow agents remember conversations.\n\n## Storing memories\n\nA memory provider stores memories.\n\n## Querying memories\n\nRelated memories are queried by similarity.',
  ),
  page(
    '/api/interfaces/Memory/',
    'Interface: Memory',
    '# Interface: Memory\n\nOne stored memory of an agent.',
    'api',
  ),
  page(
    '/api/classes/MemoryManager/',
    'Class: MemoryManager',
    '# Class: MemoryManager\n\nMemory access for plugins.',
    'api',
  ),
  page(
    '/docs/production/',
    'Running in production',
    '# Running in production\n\n## Graceful shutdown\n\nThe runtime drains its queue before it stops.\n\n## Reverse proxy\n\nPut nginx in front of the server.',
  ),
  page(
    '/docs/capabilities/',
    'Capabilities',
    '# Capabilities\n\nA capability is what a model provider can do, such as text generation.',
  ),
];
const search = new DocsSearch(pages, [
  { name: 'Memory', docsPath: '/api/interfaces/Memory/' },
  { name: 'MemoryManager', docsPath: '/api/classes/MemoryManager/' },
]);
const paths = (query: string): string[] =>
  search.search(query).map((hit) => hit.path.replace(/#.*$/, ''));

describe('the search_docs ranking', () => {
  it('splits a page into its top and one section per ## heading, ignoring ## inside code', () => {
    const sections = splitSections(
      '# T\n\nintro\n\n## One\n\na\n\n```md\n## not a heading\n```\n\n## Two\n\nb',
    );
    expect(sections.map((section) => section.heading)).toEqual(['', 'One', 'Two']);
  });

  it('puts a guide above API summaries for a concept word', () => {
    expect(paths('memory')[0]).toBe('/docs/memory/');
  });

  it('counts a guide at more than twice an API page that matches as well, so an API page leads only when it matches far more closely [claim:mcp-docs-symbol-vs-concept]', () => {
    const text = '# Looms\n\nA loom weaves cloth.';
    const same = new DocsSearch([
      page('/docs/looms/', 'Looms', text),
      page('/api/interfaces/Looms/', 'Looms', text, 'api'),
    ]);
    const [guide, api] = same.rank('loom');
    expect(guide?.pagePath).toBe('/docs/looms/');
    expect(guide!.score / api!.score).toBeGreaterThan(2);
    // The API page names the word in its title and text again and again; the guide once.
    const closer = new DocsSearch([
      page(
        '/docs/weaving/',
        'Weaving',
        `# Weaving\n\n${'Cloth is woven by hand here. '.repeat(20)}A loom helps.`,
      ),
      page(
        '/api/interfaces/LoomCoordinator/',
        'Interface: LoomCoordinator',
        '# Interface: LoomCoordinator\n\nThe loom coordinator: a loom for each loom.',
        'api',
      ),
    ]);
    expect(closer.search('loom')[0]?.path).toBe('/api/interfaces/LoomCoordinator/');
  });

  it('puts the API page first for an exact name, and for a compound name in any case [claim:mcp-docs-symbol-vs-concept]', () => {
    expect(paths('Memory')[0]).toBe('/api/interfaces/Memory/');
    expect(paths('memorymanager')[0]).toBe('/api/classes/MemoryManager/');
  });

  it('lists a page once, pointing at its best section [claim:tsdoc-search-once]', () => {
    const hits = search.search('memories');
    expect(hits.filter((hit) => hit.path.startsWith('/docs/memory/'))).toHaveLength(1);
    expect(hits[0]!.heading).toMatch(/memories/i);
    expect(hits[0]!.path).toMatch(/^\/docs\/memory\/#(storing|querying)-memories$/);
  });

  it('forgives one typo from four letters and two from eight [claim:mcp-docs-typos-fallback] [claim:tsdoc-edit-tolerance]', () => {
    expect(paths('nginz')[0]).toBe('/docs/production/');
    expect(paths('capabiltes')[0]).toBe('/docs/capabilities/');
  });

  it('allows one typo from four letters to seven, two from eight, and no more [claim:mcp-docs-typos-fallback] [claim:tsdoc-edit-tolerance]', () => {
    const fruit = (word: string): SearchablePage =>
      page(`/docs/${word}/`, `About ${word}`, `# About ${word}\n\nThe ${word} grows here.`);
    const orchard = new DocsSearch(['kiwi', 'apricot', 'mulberry'].map(fruit), []);
    const found = (query: string): string[] => orchard.search(query).map((hit) => hit.path);
    // Four letters: one typo, not two.
    expect(found('kiwa')).toEqual(['/docs/kiwi/']);
    expect(found('kxwa')).toEqual([]);
    // Seven letters: still one.
    expect(found('aprixot')).toEqual(['/docs/apricot/']);
    expect(found('aprixoz')).toEqual([]);
    // Eight letters: two, not three.
    expect(found('mulbarrz')).toEqual(['/docs/mulberry/']);
    expect(found('mxlbarrz')).toEqual([]);
    // A letter missing or extra is one edit, as a wrong one is.
    expect(found('aprict')).toEqual(['/docs/apricot/']);
    expect(found('kiwii')).toEqual(['/docs/kiwi/']);
    // Two letters swapped are two edits: forgiven from eight letters only.
    expect(found('ikwi')).toEqual([]);
    expect(found('aprciot')).toEqual([]);
    expect(found('mulbrery')).toEqual(['/docs/mulberry/']);
    const notes = new DocsSearch([fruit('memory')], []);
    expect(notes.search('memroy')).toEqual([]);
    expect(notes.search('memry').map((hit) => hit.path)).toEqual(['/docs/memory/']);
  });

  it('counts the letters of a word as typed, not of its root without the ending [claim:mcp-docs-typos-fallback] [claim:tsdoc-edit-tolerance]', () => {
    const topic = (word: string): SearchablePage =>
      page(`/docs/${word}/`, `About ${word}`, `# About ${word}\n\nThe ${word} is kept here.`);
    const shelf = new DocsSearch(['database', 'response', 'memories', 'creating'].map(topic), []);
    const found = (query: string): string[] => shelf.search(query).map((hit) => hit.path);
    // Eight letters each, two edits (a swap), though their roots (databas, respons, memory)
    // are shorter than eight.
    expect(found('databsae')).toEqual(['/docs/database/']);
    expect(found('resposne')).toEqual(['/docs/response/']);
    expect(found('memroies')).toEqual(['/docs/memories/']);
    // Three edits are still too many.
    expect(found('dxtxbxse')).toEqual([]);
    // A typo in an ending the search drops keeps the ending on: "creatign" is three edits
    // from the root "creat", where "craeting" is one, "craet" against "creat".
    expect(found('craeting')).toEqual(['/docs/creating/']);
    expect(found('creatign')).toEqual([]);
  });

  it('keeps a root of three letters exact, whatever the word: "setting" does not find "get" [claim:mcp-docs-typos-fallback] [claim:tsdoc-edit-tolerance]', () => {
    const roots = new DocsSearch(
      [
        page('/docs/set/', 'Settings', '# Settings\n\nEach option is set once.'),
        page('/docs/get/', 'Reading', '# Reading\n\nEach option can get read.'),
      ],
      [],
    );
    expect(roots.search('setting').map((hit) => hit.path)).toEqual(['/docs/set/']);
    expect(roots.search('sxtting')).toEqual([]);
  });

  it('scores a section with all words but one at half, for words whose ending the search drops too [claim:mcp-docs-fallback-tiers]', () => {
    const near = new DocsSearch(
      [page('/docs/db/', 'Storage', '# Storage\n\nThe database response is cached.')],
      [],
    );
    const score = (query: string): number => near.rank(query)[0]?.score ?? 0;
    // "database" and "response" become "databas" and "respons"; the tier without "zebra" must
    // look for those, not strip them again to "databa" and "respon".
    expect(score('database response zebra')).toBeCloseTo(score('database response') / 2);
  });

  it('does not stretch a short word: three letters must be exact [claim:mcp-docs-typos-fallback] [claim:tsdoc-edit-tolerance]', () => {
    expect(paths('ngi')).toEqual(paths('ngi').filter((path) => path === '/docs/production/'));
    expect(search.search('qux')).toEqual([]);
  });

  it('falls back to any word when no section has them all [claim:mcp-docs-fallback-tiers]', () => {
    expect(paths('deploy behind nginx')[0]).toBe('/docs/production/');
  });

  it('matches the last word as a prefix, as people type, and only the last [claim:mcp-docs-last-word-prefix]', () => {
    expect(paths('graceful shut')[0]).toBe('/docs/production/');
    const matched = (query: string) => search.rank(query)[0]?.terms ?? [];
    expect(matched('graceful shut')).toContain('shutdown');
    expect(matched('shut graceful')).not.toContain('shutdown');
  });

  it('matches the last word as a prefix once it has three letters, not two [claim:mcp-docs-last-word-prefix]', () => {
    const matched = (query: string) => search.rank(query)[0]?.terms ?? [];
    expect(matched('graceful shu')).toContain('shutdown');
    expect(paths('graceful shu')[0]).toBe('/docs/production/');
    expect(matched('graceful sh')).not.toContain('shutdown');
  });

  it('extends the root of a last word, its ending taken off: running finds runtime; ids keeps its s and finds the words it starts [claim:mcp-docs-last-word-root-letters]', () => {
    const small = new DocsSearch([
      page('/docs/tasks/', 'Tasks', '# Tasks\n\nEvery task keeps its identity.'),
      page('/docs/keys/', 'Keys', '# Keys\n\nThe ids of the keys.'),
      page('/docs/sync/', 'Sync', '# Sync\n\nThe idsync tool copies them.'),
      page('/docs/rt/', 'Runtime', '# Runtime\n\nThe runtime owns the plugins.'),
    ]);
    const terms = (query: string) =>
      small
        .rank(query)
        .flatMap((hit) => hit.terms)
        .sort();
    // `runtim` is how the index keeps `runtime`, its final e taken off as from every word.
    expect(terms('running')).toEqual(['runtim']);
    expect(terms('ids')).toEqual(['ids', 'idsync']);
    expect(terms('ide')).toEqual(['identity']);
  });

  it('looks for a last word of two letters as that word alone [claim:mcp-docs-last-word-prefix]', () => {
    const small = new DocsSearch([
      page('/docs/scripts/', 'Scripts', '# Scripts\n\nRun the script with sh.'),
      page('/docs/stopping/', 'Stopping', '# Stopping\n\nA graceful shutdown drains the queue.'),
    ]);
    const ranked = small.rank('graceful sh');
    // No section has both words, so each comes up for the one it has: `sh` is no prefix here.
    expect(Object.fromEntries(ranked.map((hit) => [hit.pagePath, hit.terms]))).toEqual({
      '/docs/scripts/': ['sh'],
      '/docs/stopping/': ['graceful'],
    });
    expect(
      small.rank('graceful shu').find((hit) => hit.pagePath === '/docs/stopping/')?.terms,
    ).toContain('shutdown');
  });

  it('finds, as people type, a word the search keeps by its root, once the last word runs past the root [claim:mcp-docs-last-word-prefix]', () => {
    const typing = new DocsSearch([
      page('/docs/logs/', 'Observability', '# Observability\n\nThe logging level is set once.'),
      page('/docs/cache/', 'Answers', '# Answers\n\nThe runtime is caching answers.'),
      page('/docs/stopping/', 'Stopping', '# Stopping\n\nA graceful shutdown drains the queue.'),
    ]);
    const found = (query: string): string[] => typing.search(query).map((hit) => hit.path);
    // "logging" is indexed as its root, "log": "loggi" and "loggin" run past it.
    for (const partial of ['log', 'logg', 'loggi', 'loggin', 'logging']) {
      expect(found(partial), partial).toEqual(['/docs/logs/']);
    }
    for (const partial of ['cachi', 'cachin', 'caching']) {
      expect(found(partial), partial).toEqual(['/docs/cache/']);
    }
    // Only as the last word, which the reader may still be typing; with every word required.
    expect(typing.rank('loggin level')[0]?.terms).toEqual(['level']);
    expect([...(typing.rank('level loggin')[0]?.terms ?? [])].sort()).toEqual(['level', 'log']);
    // Two words and no section with both: each page comes up for the one it has.
    expect(found('graceful loggin').sort()).toEqual(['/docs/logs/', '/docs/stopping/']);
    // The snippet shows the word as written.
    expect(typing.search('loggin')[0]?.snippet).toContain('logging');
  });

  it('matches only the last word as a prefix in the tier of all words but one as well [claim:mcp-docs-last-word-prefix]', () => {
    const small = new DocsSearch([
      page('/docs/stopping/', 'Stopping', '# Stopping\n\nA graceful shutdown drains the queue.'),
    ]);
    const terms = (query: string) => small.rank(query)[0]?.terms ?? [];
    // Three words, so the sections with two of them count: `shut` is not the last word.
    expect(terms('shut graceful queue')).not.toContain('shutdown');
    expect(terms('graceful shut zebra')).not.toContain('shutdown');
    expect(terms('graceful queue shut')).toContain('shutdown');
  });

  it('shows code in a snippet as written, without the fence info, around the matched words [claim:tsdoc-snippet-code-as-written] [claim:tsdoc-snippet-window]', () => {
    const markdown =
      '## Logs\n\nSet the _level_ with **care**.\n\n```bat title="x" npm2yarn\nset WEFT_LOG_LEVEL=warn\n```\n\n' +
      'Then `stop(): Promise<void>` waits, and <Tabs>snake_case</Tabs> stays.';
    expect(snippetText(markdown)).toBe(
      'Set the level with care. set WEFT_LOG_LEVEL=warn Then stop(): Promise<void> waits, and snake_case stays.',
    );
    const long = `${'Filler words here. '.repeat(20)}Set WEFT_LOG_LEVEL to warn.`;
    expect(snippetOf(long, ['weft_log_level', 'warn'])).toMatch(/Set WEFT_LOG_LEVEL to warn\.$/);
  });

  it('gives a snippet around the first matched word', () => {
    const [hit] = search.search('drains');
    expect(hit!.snippet).toContain('drains its queue');
    expect(hit!.heading).toBe('Graceful shutdown');
  });

  describe('words and identifiers', () => {
    const more = new DocsSearch(
      [
        page(
          '/docs/storage/',
          'Storage',
          '# Storage\n\n## SqliteMemoryProvider\n\nKeeps memories in a file.\n\n## Limits\n\nSet `server.allowedHosts` for a proxy.',
        ),
        page(
          '/docs/errors/',
          'Errors reference',
          '# Errors reference\n\nEvery code.\n\n## Core codes\n\nThe core raises these.\n\n### WEFT_TASK_TIMEOUT\n\nA task ran past its deadline.\n\n### WEFT_QUEUE_FULL\n\nThe queue is full; a task timeout would not help.',
        ),
        // Listed first, so that without the other sections' share it would win the tie.
        page('/docs/one-mention/', 'Notes', '# Notes\n\nA task timeout exists.'),
        page(
          '/docs/deadlines/',
          'Limits',
          '# Limits\n\nA task timeout exists.\n\n## More\n\nAnother task timeout applies to every step of every plan that the model returns while the agent runs.',
        ),
        page('/docs/plugins/', 'Executors', '# Executors\n\nAn executor does one step.'),
      ],
      [{ name: 'WEFT_TASK_TIMEOUT', docsPath: '/docs/errors/#weft_task_timeout' }],
    );
    const found = (query: string): string[] =>
      more.search(query).map((hit) => hit.path.replace(/#.*$/, ''));

    it('finds an identifier by its parts, including a dotted option path [claim:mcp-docs-little-words-plurals-paths]', () => {
      expect(found('sqlite')[0]).toBe('/docs/storage/');
      expect(found('allowedHosts')[0]).toBe('/docs/storage/');
    });

    it("puts an error code's section of the reference first, found as itself [claim:mcp-docs-error-code-first] [claim:tsdoc-heading-section]", () => {
      expect(found('WEFT_TASK_TIMEOUT')[0]).toBe('/docs/errors/');
      // Its own `###` part, not the `##` part around it (stdio-server.test.ts: every real code).
      const [hit] = more.search('WEFT_TASK_TIMEOUT');
      expect(hit).toMatchObject({
        path: '/docs/errors/#weft_task_timeout',
        heading: 'WEFT_TASK_TIMEOUT',
        snippet: 'A task ran past its deadline.',
      });
    });

    it('takes an error code typed in any letter case to its own section [claim:mcp-docs-error-code-first]', () => {
      for (const query of ['weft_task_timeout', 'Weft_Task_Timeout']) {
        expect(more.search(query)[0], query).toMatchObject({
          path: '/docs/errors/#weft_task_timeout',
          heading: 'WEFT_TASK_TIMEOUT',
        });
      }
    });

    it('does not require little words such as "the" or "to" [claim:mcp-docs-little-words-plurals-paths]', () => {
      expect(found('the timeout of a task')).toContain('/docs/deadlines/');
      expect(found('the timeout of a task')).toEqual(found('timeout task'));
    });

    it("adds a quarter of each other matching section's score to a page's best [claim:mcp-docs-page-score]", () => {
      const pages = [
        page('/docs/one/', 'Same', '# Same\n\n## One\n\nalpha beta'),
        page('/docs/two/', 'Same', '# Same\n\n## One\n\nalpha beta\n\n## Two\n\nalpha beta'),
      ];
      const ranked = new DocsSearch(pages).rank('alpha');
      const score = (path: string) => ranked.find((entry) => entry.pagePath === path)!.score;
      expect(ranked[0]!.pagePath).toBe('/docs/two/');
      expect(score('/docs/two/') / score('/docs/one/')).toBeCloseTo(1.25);
    });

    it('takes as its best section the one that scores most once words in a row count, not the first found [claim:mcp-docs-page-score]', () => {
      const filler = (count: number) =>
        Array.from({ length: count }, (_, index) => `lorem${index}`).join(' ');
      // "One" has the words scattered; "Two" has them in a row, which outweighs its longer text.
      const scattered = `queue here. ${filler(6)} drain there.`;
      const inRow = `${filler(8)} the queue drain happens`;
      const ranked = new DocsSearch([
        page('/docs/both/', 'Alpha', `# Alpha\n\n## One\n\n${scattered}\n\n## Two\n\n${inRow}`),
        page('/docs/row/', 'Beta', `# Beta\n\n## Two\n\n${inRow}`),
        page('/docs/scattered/', 'Gamma', `# Gamma\n\n## One\n\n${scattered}`),
      ]).rank('queue drain');
      const score = (path: string) => ranked.find((entry) => entry.pagePath === path)!.score;
      // Without the bonus for the words in a row (1.5 for two), "One" would score more.
      expect(score('/docs/scattered/')).toBeGreaterThan(score('/docs/row/') / 1.5);
      expect(score('/docs/row/')).toBeGreaterThan(score('/docs/scattered/'));
      expect(ranked[0]).toMatchObject({ pagePath: '/docs/both/', heading: 'Two' });
      expect(score('/docs/both/')).toBeCloseTo(score('/docs/row/') + score('/docs/scattered/') / 4);
    });

    it('ranks a page answering in several sections above a single mention', () => {
      const order = found('task timeout');
      expect(order.indexOf('/docs/deadlines/')).toBeLessThan(order.indexOf('/docs/one-mention/'));
    });

    it('counts a plural as its singular, not as a looser match [claim:mcp-docs-little-words-plurals-paths]', () => {
      // Without it, "executor" only reaches "Executors" as a prefix, which scores less.
      const plural = new DocsSearch([
        page('/docs/steps/', 'Steps', '# Steps\n\nExecutors run each step.'),
      ]);
      const scoreOf = (query: string) => plural.search(query)[0]?.score;
      expect(scoreOf('executor')).toBeGreaterThan(0);
      expect(scoreOf('executor')).toBe(scoreOf('executors'));
    });

    it('finds the singular of a plural from four letters, not of a shorter one [claim:mcp-docs-little-words-plurals-paths]', () => {
      const short = new DocsSearch([
        page('/docs/key/', 'Keying', '# Keying\n\nOne key opens it.'),
        page('/docs/id/', 'Naming', '# Naming\n\nOne id names it.'),
      ]);
      expect(short.search('keys').map((hit) => hit.path)).toEqual(['/docs/key/']);
      expect(short.search('ids')).toEqual([]);
    });
  });

  describe('names a table defines', () => {
    const optionsTable = (names: string[]) =>
      `| Option | Default |\n| --- | --- |\n${names.map((name) => `| \`options.${name}\` | 1 |`).join('\n')}`;
    const tables = new DocsSearch([
      // Says maxSteps more often than the reference does, but only in prose.
      page(
        '/docs/how-it-runs/',
        'How a task runs',
        '# How a task runs\n\n## Steps\n\nA plan longer than maxSteps is cut; maxSteps counts steps; raise maxSteps for long plans.',
      ),
      page(
        '/docs/triggers/',
        'Triggers',
        `# Triggers\n\n## Server options\n\n${optionsTable(['allowedHosts', 'bodyLimit'])}\n\nThe allowedHosts list guards against DNS rebinding; allowedHosts takes host names.`,
      ),
      page(
        '/docs/configuration/',
        'Configuration',
        `# Configuration\n\n## Intro\n\nEvery option.\n\n## Options\n\n${optionsTable(['maxSteps', 'allowedHosts', 'bodyLimit', 'host'])}`,
      ),
      page('/docs/hosts/', 'Hosts', '# Hosts\n\nA host name is what a request names.'),
    ]);
    const first = (query: string) => tables.search(query)[0]?.path;

    it('reads the last dotted part of a first cell that is one code span', () => {
      expect(tableDefinitions(optionsTable(['maxSteps', 'host']))).toEqual(['maxSteps', 'host']);
      expect(tableDefinitions('| `a` and `b` | x |\n| plain | `code` |')).toEqual([]);
    });

    it("puts the section with the name's row first for a query that is exactly the name [claim:mcp-docs-table-definitions]", () => {
      expect(first('maxSteps')).toBe('/docs/configuration/#options');
      expect(first('maxsteps')).toBe('/docs/configuration/#options');
      // Not a query that only contains it.
      expect(first('raise maxSteps')).toBe('/docs/how-it-runs/#steps');
    });

    it('gives a name several tables define to the page that defines the most names [claim:mcp-docs-table-definitions]', () => {
      expect(first('allowedHosts')).toBe('/docs/configuration/#options');
      expect(tables.search('allowedHosts').map((hit) => hit.path)).toContain(
        '/docs/triggers/#server-options',
      );
    });

    it("leaves an exported name to its API page: a guide's table row listing it adds nothing [claim:mcp-docs-table-definitions]", () => {
      const pages = [
        page(
          '/docs/utilities/',
          'Utilities',
          '# Utilities\n\n## Helpers\n\n| Helper | Does |\n| --- | --- |\n| `formatSchema` | writes a schema |',
        ),
        page(
          '/api/functions/formatSchema/',
          'Function: formatSchema',
          '# Function: formatSchema\n\nWrites a schema.',
          'api',
        ),
      ];
      const symbol = { name: 'formatSchema', docsPath: '/api/functions/formatSchema/' };
      const guideScore = (search: DocsSearch) =>
        search.search('formatSchema').find((hit) => hit.path.startsWith('/docs/utilities/'))!.score;
      const asSymbol = new DocsSearch(pages, [symbol]);
      expect(asSymbol.search('formatSchema')[0]?.path).toBe('/api/functions/formatSchema/');
      // Not exported, the row puts the guide first with a hundredfold boost; exported, the
      // guide keeps only what its words earn.
      expect(guideScore(asSymbol)).toBeLessThan(guideScore(new DocsSearch(pages)) / 10);
    });

    it("leaves an error code to its section and a guide's title to its guide [claim:mcp-docs-table-definitions]", () => {
      const pages = [
        page(
          '/docs/reference/',
          'Reference',
          `# Reference\n\n## Names\n\n${optionsTable(['getObject', 'WEFT_QUEUE_FULL', 'bodyLimit'])}`,
        ),
        page('/docs/getobject/', 'getObject', '# getObject\n\nAsks the model for a value.'),
        page(
          '/docs/errors/',
          'Errors',
          '# Errors\n\n## Codes\n\n### WEFT_QUEUE_FULL\n\nThe queue is full.\n',
        ),
      ];
      const search = new DocsSearch(pages, [
        { name: 'WEFT_QUEUE_FULL', docsPath: '/docs/errors/#weft_queue_full' },
      ]);
      expect(search.search('getObject')[0]?.path).toBe('/docs/getobject/');
      expect(search.search('WEFT_QUEUE_FULL')[0]?.path).toBe('/docs/errors/#weft_queue_full');
      // The row's own name, neither, still leads to the row.
      expect(search.search('bodyLimit')[0]?.path).toBe('/docs/reference/#names');
    });

    it('leaves a plain word to the ranking of words [claim:mcp-docs-table-definitions]', () => {
      expect(first('host')).toBe('/docs/hosts/');
    });
  });

  describe('forms of a word, most of the words, titles', () => {
    const forms = new DocsSearch([
      page(
        '/docs/observability/',
        'Observability',
        '# Observability\n\n## Logs\n\nEvery task is logged with its id; the logger writes JSON lines.',
      ),
      page(
        '/docs/spaces/',
        'Spaces',
        '# Spaces\n\n## Order of tasks\n\nTasks of one space run in the order they arrived.',
      ),
      page('/docs/setup/', 'Set-up', '# Set-up\n\nWe created the project for you.'),
      page(
        '/docs/philosophy/',
        'Philosophy',
        '# Philosophy\n\nEach plugin decides what it does behind its executors.',
      ),
      page(
        '/docs/proxy/',
        'Behind a proxy',
        '# Behind a proxy\n\n## nginx\n\nForward the host header and deploy with TLS.',
      ),
      page('/docs/getobject/', 'getObject', '# getObject\n\nAsks the model for a value.'),
      page(
        '/docs/troubleshooting/',
        'Troubleshooting',
        '# Troubleshooting\n\n## getObject keeps failing\n\nWhen getObject gives up after its retries, getObject reports the last validation error.',
      ),
    ]);
    const top = (query: string): string | undefined =>
      forms.search(query)[0]?.path.replace(/#.*$/, '');

    it('finds a word by its other forms: -ing, -ed, -s and a silent e', () => {
      expect(top('logging')).toBe('/docs/observability/');
      expect(top('ordering per space')).toBe('/docs/spaces/');
      expect(top('create project')).toBe('/docs/setup/');
    });

    it('keeps the parts that have all words but one above those that have any word [claim:mcp-docs-fallback-tiers]', () => {
      // No part has "deploy", "nginx" and "kubernetes"; the proxy page has two of them, the
      // philosophy page none but it would match "deploy" were it there.
      expect(top('deploy nginx kubernetes')).toBe('/docs/proxy/');
      expect(top('plugin behind kubernetes')).toBe('/docs/philosophy/');
    });

    it('adds the parts with all words but one after those with them all, when these are few [claim:mcp-docs-fallback-tiers]', () => {
      const near = new DocsSearch([
        page('/docs/a/', 'A', '# A\n\nRetries once, with delivery of at least one event.'),
        page('/docs/b/', 'B', '# B\n\nTasks run at least once after a crash.'),
      ]);
      const found = near.search('least once delivery').map((hit) => hit.path);
      expect(found).toEqual(['/docs/a/', '/docs/b/']);
    });

    it('looks for the parts with all words but one only while fewer pages than the limit have them all [claim:mcp-docs-fallback-tiers]', () => {
      const filler = 'Many other words on other subjects fill this long section. '.repeat(40);
      const shop = (path: string): SearchablePage =>
        page(path, 'Workshop', `# Workshop\n\n${filler}A loom, some cloth and a spindle.`);
      const tiers = new DocsSearch([
        shop('/docs/shop-one/'),
        shop('/docs/shop-two/'),
        page(
          '/docs/weaving/',
          'Weaving',
          '# Weaving\n\n## Loom cloth\n\nLoom cloth: the loom weaves cloth.',
        ),
      ]);
      const found = (limit: number): string[] =>
        tiers.search('loom cloth spindle', limit).map((hit) => hit.path.replace(/#.*$/, ''));
      // Two pages have all three words: fewer than three, so the weaving page, which lacks
      // "spindle" but matches twice as closely, joins them and leads.
      expect(found(3)).toEqual(['/docs/weaving/', '/docs/shop-one/', '/docs/shop-two/']);
      // As many as two: the tier is not looked at.
      expect(found(2)).toEqual(['/docs/shop-one/', '/docs/shop-two/']);
    });

    it('scores a part with all words but one at half, so it ranks higher only when it matches more than twice as closely [claim:mcp-docs-fallback-tiers]', () => {
      const filler = 'Many other words on other subjects fill this long section. '.repeat(40);
      const halves = new DocsSearch([
        page(
          '/docs/workshop/',
          'Workshop',
          `# Workshop\n\n${filler}A loom, some cloth and a spindle are mentioned once.`,
        ),
        page(
          '/docs/weaving/',
          'Weaving',
          '# Weaving\n\n## Loom cloth\n\nLoom cloth: the loom weaves cloth.',
        ),
      ]);
      const score = (query: string, path: string): number =>
        halves.rank(query).find((ranked) => ranked.pagePath === path)?.score ?? 0;
      // The weaving part lacks "spindle": it counts at half of what it scores for its two words.
      expect(score('loom cloth spindle', '/docs/weaving/')).toBeCloseTo(
        score('loom cloth', '/docs/weaving/') / 2,
      );
      // Half of its score is still more than the workshop's, which has all three words once.
      expect(score('loom cloth spindle', '/docs/weaving/')).toBeGreaterThan(
        score('loom cloth spindle', '/docs/workshop/'),
      );
      expect(
        halves.search('loom cloth spindle').map((hit) => hit.path.replace(/#.*$/, '')),
      ).toEqual(['/docs/weaving/', '/docs/workshop/']);
    });

    it('leaves out the parts with one word of three while a part has two, and takes any word only when none has [claim:mcp-docs-fallback-tiers]', () => {
      const tiers = new DocsSearch([
        page('/docs/loom/', 'Looms', '# Looms\n\nThe loom weaves cloth quickly.'),
        page('/docs/spindle/', 'Spindles', '# Spindles\n\nA spindle spins yarn.'),
        page('/docs/dye/', 'Dyes', '# Dyes\n\nThe cloth is dyed.'),
      ]);
      const found = (query: string) => tiers.search(query).map((hit) => hit.path);
      // Two of three words in one part: the parts with a single word do not count.
      expect(found('loom cloth spindle')).toEqual(['/docs/loom/']);
      // No part has both words of two, and two words have no "all but one" tier: any word.
      expect(found('loom spindle').sort()).toEqual(['/docs/loom/', '/docs/spindle/']);
      // A part has both: the dye's part, with "cloth" alone, does not join it, though fewer
      // pages than the limit have both words.
      expect(found('loom cloth')).toEqual(['/docs/loom/']);
      // No part has two of these three: any word again.
      expect(found('loom spindle dyed').sort()).toEqual([
        '/docs/dye/',
        '/docs/loom/',
        '/docs/spindle/',
      ]);
    });

    it('counts the words without the little ones, and has no "all but one" tier past six [claim:mcp-docs-fallback-tiers]', () => {
      const tiers = new DocsSearch([
        page(
          '/docs/loom/',
          'Looms',
          '# Looms\n\nThe loom weaves cloth on spindle wheels with a treadle and a shuttle.',
        ),
        page('/docs/bobbin/', 'Bobbins', '# Bobbins\n\nA bobbin holds thread.'),
      ]);
      const found = (query: string) => tiers.search(query).map((hit) => hit.path);
      // Eight words as typed, three once the little words are left out: the tier applies, and
      // the part with one word of three does not count while the loom's has two.
      expect(found('the loom and the cloth with a bobbin')).toEqual(['/docs/loom/']);
      // Seven words: the loom's part has six of them, yet with no part holding all seven, the
      // part with a single word counts too.
      expect(found('loom cloth spindle wheel treadle shuttle bobbin')).toEqual([
        '/docs/loom/',
        '/docs/bobbin/',
      ]);
      // Six words, five in the loom's part: the tier applies again.
      expect(found('loom cloth spindle wheel treadle bobbin')).toEqual(['/docs/loom/']);
    });

    it('ranks the words in a row, as the query writes them, above the same words scattered', () => {
      const phrases = new DocsSearch([
        page('/docs/a/', 'Retries', '# Retries\n\nOnce a task fails, retry it at least twice.'),
        page(
          '/docs/b/',
          'Crashes',
          '# Crashes\n\nAfter a crash, the task runs at least once more, and its steps run again from the first.',
        ),
      ]);
      expect(phrases.search('task at least once').map((hit) => hit.path)).toEqual([
        '/docs/b/',
        '/docs/a/',
      ]);
    });

    it("puts a guide first when the query is the guide's title", () => {
      expect(top('getObject')).toBe('/docs/getobject/');
      expect(top('getobject')).toBe('/docs/getobject/');
    });

    it('offers the pages with the nearest titles when nothing matches', () => {
      expect(forms.search('qqzzxx')).toEqual([]);
      expect(forms.closestPages('Observabilty')).toEqual([
        { title: 'Observability', path: '/docs/observability/' },
      ]);
    });
  });
});

describe('TSDoc of closestMatches', () => {
  const codes = ['WEFT_TASK_TIMEOUT', 'WEFT_OPENAI_TIMEOUT', 'WEFT_QUEUE_FULL', 'WEFT_DUPLICATE'];

  it('puts names containing the query first, then the others by edit distance, ignoring case [claim:tsdoc-closest-order]', () => {
    expect(closestMatches('timeout', codes)).toEqual(['WEFT_TASK_TIMEOUT', 'WEFT_OPENAI_TIMEOUT']);
    // Containing the query beats a smaller edit distance.
    expect(closestMatches('queue', ['QUEUX', 'WEFT_QUEUE_FULL'])).toEqual([
      'WEFT_QUEUE_FULL',
      'QUEUX',
    ]);
    expect(closestMatches('WEFT_DUPLICAT', codes, 1)).toEqual(['WEFT_DUPLICATE']);
  });

  it('keeps only names at most half their length away, or two edits for short ones [claim:tsdoc-closest-cutoff]', () => {
    expect(closestMatches('abcd', ['wxyz', 'abxy', 'axyz'])).toEqual(['abxy']);
    expect(closestMatches('abcdefgh', ['abcdwxyz', 'abcwxyzq'])).toEqual(['abcdwxyz']);
  });

  it('gives the first candidates for a blank query [claim:tsdoc-closest-blank]', () => {
    expect(closestMatches('  ', codes, 2)).toEqual(codes.slice(0, 2));
  });
});
