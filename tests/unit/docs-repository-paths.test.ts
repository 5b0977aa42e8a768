/**
 * Every repository path a document writes in a code span names something that is there: a page
 * that sends a contributor to `tests/unit/some.test.ts` after that file was merged into another
 * stays wrong while every claim id still finds its test (a reader found exactly that in the
 * contributing guide). A path counts when it starts with one of the repository's own top-level
 * folders; `src/` counts only under one of the site's own `src/` folders, since the guides also
 * name files of a generated project (`src/agent.ts`) and of a package (`src/errors.ts`). Paths
 * that git ignores are generated (`packages/mcp-docs/dist`), so they may be missing in a clean
 * clone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** The top-level folders whose paths the documents name, `src/` aside. */
const REPOSITORY_FOLDERS = [
  '.ci',
  '.github',
  'bench',
  'docs',
  'examples',
  'libs',
  'packages',
  'scripts',
  'static',
  'tests',
  'tooling',
  'whitepaper',
];

/** Spans that look like repository paths but are not, by page, each with why. */
const NOT_REPOSITORY_PATHS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'docs/contributing-guide.md',
    new Map([
      ['docs/intro', "the stock Docusaurus site's page, in the bench's temporary folder"],
      // The Run panel section says its paths are under src/components/RunPanel/.
      ['examples/executors/run.ts', 'under src/components/RunPanel/'],
      ['examples/http-chat/editor.ts', 'under src/components/RunPanel/'],
      ['examples/http-chat/run.ts', 'under src/components/RunPanel/'],
      ['examples/triggers/run.ts', 'under src/components/RunPanel/'],
    ]),
  ],
]);

function documents(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => `docs/${file.split(path.sep).join('/')}`);
  const readmes = readdirSync(path.join(root, 'packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((file) => existsSync(path.join(root, file)));
  const whitepaper = readdirSync(path.join(root, 'whitepaper'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `whitepaper/${file}`);
  return ['README.md', 'SECURITY.md', ...docs, ...readmes, ...whitepaper].sort();
}

const siteSourceFolders = readdirSync(path.join(root, 'src')).filter((name) =>
  statSync(path.join(root, 'src', name)).isDirectory(),
);

/** The repository path a code span names, or undefined when it names none. */
export function repositoryPathOf(span: string): string | undefined {
  if (/[\s*<>{}$]|\.\.\.|…/.test(span)) return undefined;
  const target = span.replace(/[#:].*$/, '').replace(/\/$/, '');
  const [first, second] = target.split('/');
  if (target.split('/').length < 2) return undefined;
  if (REPOSITORY_FOLDERS.includes(first!)) return target;
  if (first === 'src' && siteSourceFolders.includes(second!)) return target;
  return undefined;
}

/** Whether git ignores `file`, as a file or as a folder (a pattern such as `data/` needs the slash). */
function ignoredByGit(file: string): boolean {
  return [file, `${file}/`].some((name) => {
    try {
      execFileSync('git', ['check-ignore', '-q', name], { cwd: root });
      return true;
    } catch {
      return false;
    }
  });
}

/** The spans of `markdown` outside fenced code, where a sample's own paths are its project's. */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}

describe('repository paths in the documents', () => {
  it('finds a path that is not there, and leaves a project file and a pattern alone [claim:cg-docs-repository-paths]', () => {
    expect(repositoryPathOf('tests/unit/no-such.test.ts')).toBe('tests/unit/no-such.test.ts');
    expect(repositoryPathOf('scripts/build-site.ts:129')).toBe('scripts/build-site.ts');
    expect(repositoryPathOf('src/plugins/local-search/')).toBe('src/plugins/local-search');
    expect(repositoryPathOf('src/agent.ts')).toBeUndefined();
    expect(repositoryPathOf('packages/*/README.md')).toBeUndefined();
    expect(repositoryPathOf('packages/<name>/src/errors.ts')).toBeUndefined();
  });

  it.each(documents())(
    '%s names only paths that exist or are generated [claim:cg-docs-repository-paths]',
    (document) => {
      const allowed = NOT_REPOSITORY_PATHS.get(document) ?? new Map<string, string>();
      const missing = new Set<string>();
      for (const span of codeSpans(readFileSync(path.join(root, document), 'utf8'))) {
        const target = repositoryPathOf(span);
        if (target === undefined || allowed.has(target)) continue;
        if (!existsSync(path.join(root, target)) && !ignoredByGit(target)) missing.add(target);
      }
      expect([...missing], `${document} names paths the repository does not have`).toEqual([]);
    },
  );
});
