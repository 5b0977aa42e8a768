/**
 * The guides' Markdown as the bundle carries it (scripts/docs-pages.ts): every sample the site
 * fills from examples/ is filled here too, wherever its fence sits, and a fence that only shows
 * the syntax stays as written.
 */
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { links } from '@weft-internal/docs-model/site';
import { embedSamples, mdxAsMarkdown, readGuidePages } from '../scripts/docs-pages.js';
import { ROOT_DIR } from './support.js';

async function rootWith(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'weft-mcp-samples-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

describe('embedSamples', () => {
  it('fills a fence at the start of a line, keeping its language and title [claim:mcp-docs-read-row]', async () => {
    const root = await rootWith({ 'examples/a.ts': 'const a = 1;\n' });
    expect(
      embedSamples(
        'Text\n\n```ts title="examples/a.ts" file=<rootDir>/examples/a.ts\n\n```\n',
        root,
      ),
    ).toBe('Text\n\n```ts title="examples/a.ts"\nconst a = 1;\n```\n');
  });

  it('fills an indented fence in a list item, each line indented as the fence [claim:mcp-docs-read-row]', async () => {
    const root = await rootWith({ 'examples/b.ts': 'function b() {\n  return 2;\n}\n\nb();\n' });
    const markdown =
      '1. First.\n2. Second:\n\n   ```ts title="examples/b.ts" file=<rootDir>/examples/b.ts\n\n   ```\n\n   After.\n';
    expect(embedSamples(markdown, root)).toBe(
      '1. First.\n2. Second:\n\n   ```ts title="examples/b.ts"\n   function b() {\n     return 2;\n   }\n\n   b();\n   ```\n\n   After.\n',
    );
  });

  it('fills a fence whose meta goes on after file=, dropping the site-only flags', async () => {
    const root = await rootWith({ 'examples/c.ts': 'c();\n' });
    expect(embedSamples('```ts file=<rootDir>/examples/c.ts no-hover-types\n```', root)).toBe(
      '```ts\nc();\n```',
    );
  });

  it('leaves a fence inside a longer fence as written: it shows the syntax, as on the site', async () => {
    const markdown =
      '````md\n```ts title="examples/a.ts" file=<rootDir>/examples/nowhere.ts\n\n```\n````\n';
    expect(embedSamples(markdown, await rootWith({}))).toBe(markdown);
  });

  it("fills the production guide's indented sample, which read_page once returned empty [claim:mcp-docs-read-row]", () => {
    const page = embedSamples(
      readFileSync(join(ROOT_DIR, 'docs/guides/production.md'), 'utf8'),
      ROOT_DIR,
    );
    const sample = readFileSync(join(ROOT_DIR, 'examples/production/guarded-plugin.ts'), 'utf8');
    const indented = sample
      .trimEnd()
      .split('\n')
      .map((line) => (line === '' ? '' : `   ${line}`))
      .join('\n');
    expect(page).toContain(
      `   \`\`\`ts title="examples/production/guarded-plugin.ts"\n${indented}\n   \`\`\``,
    );
  });
});

describe('mdxAsMarkdown', () => {
  const scope = { links: { repository: 'https://example.test/repo', chat: 'https://chat.test' } };

  it('drops imports, interactive components and table wrappers, and keeps code as written [claim:mcp-docs-read-row]', () => {
    const mdx = [
      "import RunPanel from '@site/src/components/RunPanel';",
      '',
      'Text.',
      '',
      '<RunPanel example="chat" />',
      '',
      '<div className="table-region" role="region" aria-label="Options" tabIndex={0}>',
      '',
      '| A | B |',
      '| --- | --- |',
      '',
      '</div>',
      '',
      '```tsx',
      "import RunPanel from '@site/src/components/RunPanel';",
      '<RunPanel />',
      '</div>',
      '```',
    ].join('\n');
    expect(mdxAsMarkdown(mdx, scope)).toBe(
      [
        '',
        'Text.',
        '',
        '',
        '',
        '| A | B |',
        '| --- | --- |',
        '',
        '',
        '```tsx',
        "import RunPanel from '@site/src/components/RunPanel';",
        '<RunPanel />',
        '</div>',
        '```',
      ].join('\n'),
    );
  });

  it('makes a JSX link to an imported value a Markdown link to that value [claim:mcp-docs-read-row]', () => {
    expect(
      mdxAsMarkdown(
        'See the <a href={`${links.repository}/issues?q=a`}>issues</a> or <a href={links.chat}>chat</a>.',
        scope,
      ),
    ).toBe('See the [issues](https://example.test/repo/issues?q=a) or [chat](https://chat.test).');
    expect(() => mdxAsMarkdown('<a href={links.nowhere}>x</a>', scope)).toThrow(
      'cannot resolve links.nowhere',
    );
  });

  it('leaves no MDX in the pages read_page returns, and resolves their links [claim:mcp-docs-read-row]', () => {
    const pages = readGuidePages(ROOT_DIR, []);
    for (const page of pages) {
      let inCode = false;
      for (const line of page.markdown.split('\n')) {
        if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
        if (inCode) continue;
        expect(line, page.path).not.toMatch(/^import\s|^\s*<[A-Z]|className=|=\{/);
      }
    }
    const bounty = pages.find((page) => page.path === '/docs/bounty-program/')!;
    expect(bounty.markdown).toContain(`[Discord](${links.chat})`);
    expect(bounty.markdown).toContain(
      `[security policy](${links.repository}/blob/main/SECURITY.md)`,
    );
  });
});
