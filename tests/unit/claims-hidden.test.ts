/**
 * Claim ids (tests/claims/claims.ts) are for contributors: none reaches a reader. The site's
 * Markdown preprocessor drops `<!-- claim: … -->` before a page is compiled, and its Markdown
 * options would drop one it missed from the HTML (from which the Markdown copies,
 * llms.txt, the search index and the docs MCP server's pages are made: its tests check its
 * bundle), the whitepaper drops it from the source it reads, and TypeDoc drops `@claim` tags
 * from the API pages.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createProcessorUncached } from '@docusaurus/mdx-loader/lib/processor.js';
import type { Config } from '@docusaurus/types';
import { Application, type Comment, LogLevel, OptionDefaults, ReflectionKind } from 'typedoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWhitepaper } from '../../tooling/assets/generate-whitepaper';
import { readShownSample } from '../../tooling/assets/generate-hover-types';
import { TYPEDOC_EXCLUDED_TAGS, typedocOptions } from '@weft-internal/docs-model/typedoc';
import { collectClaims, markdownClaims, repositoryRoot } from '../claims/claims';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'weft-claims-hidden-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PAGE = [
  '---',
  'title: Page',
  '---',
  'It gives up after 3 seconds. <!-- claim: gives-up-secret -->',
  '',
  '| Option | Default <!-- claim: table-secret untested: why --> |',
  '| --- | --- |',
  '| `x` | 1 |',
  '',
  '- An item. <!-- claim: item-secret -->',
  '',
].join('\n');
const SECRETS = ['gives-up-secret', 'table-secret', 'item-secret'];

async function compileWithSiteOptions(
  content: string,
  filePath: string,
  remarkPlugins: unknown[] = [],
): Promise<string> {
  const config = (await import('../../docusaurus.config')).default as Config;
  const processor = await createProcessorUncached({
    format: 'mdx',
    options: {
      markdownConfig: {
        format: 'mdx',
        mermaid: false,
        emoji: true,
        anchors: { maintainCase: false },
        // Diagrams are rendered by the build; links and images are not what this test is about.
        hooks: { onBrokenMarkdownLinks: 'ignore', onBrokenMarkdownImages: 'ignore' },
        mdx1Compat: {
          comments: false,
          admonitions: false,
          headingIds: false,
          ...config.markdown?.mdx1Compat,
        },
      },
      admonitions: true,
      staticDirs: [],
      siteDir: repositoryRoot,
      remarkPlugins,
    },
    // Only the fields the processor reads; the rest of Docusaurus's options are the loader's.
  } as unknown as Parameters<typeof createProcessorUncached>[0]);
  const result = await processor.process({
    content,
    filePath,
    frontMatter: {},
    compilerName: 'server',
  });
  return result.content;
}

describe('claim ids in Markdown [claim:contrib-claim-ids-hidden]', () => {
  it('compile with the site’s Markdown options and are left out of the page', async () => {
    const output = await compileWithSiteOptions(
      PAGE.replace(/^---[\s\S]*?---\n/, ''),
      path.join(repositoryRoot, 'docs/page.md'),
    );
    expect(output).toContain('It gives up after 3 seconds.');
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  });

  it('are left out of every docs page the site builds', async () => {
    const pages = collectClaims().pages.filter((claim) => claim.file.startsWith('docs/'));
    const files = [...new Set(pages.map((claim) => claim.file))];
    for (const file of files) {
      const source = readFileSync(path.join(repositoryRoot, file), 'utf8');
      const output = await compileWithSiteOptions(
        source.replace(/^---\n[\s\S]*?\n---\n/, ''),
        path.join(repositoryRoot, file),
      );
      for (const claim of markdownClaims(source, file).pages) {
        expect(output, `${file}: claim ${claim.id}`).not.toContain(`claim: ${claim.id}`);
      }
    }
  }, 120_000);

  it('are left out of the whitepaper', () => {
    const blocks = parseWhitepaper(
      '# Title\n\nIt gives up after 3 seconds. <!-- claim: gives-up-secret -->\n\n- An item. <!-- claim: item-secret untested: why -->\n',
    );
    expect(JSON.stringify(blocks)).not.toContain('secret');
    expect(blocks).toContainEqual({ kind: 'paragraph', text: 'It gives up after 3 seconds.' });
  });
});

describe('the site’s Markdown preprocessor [claim:cg-claim-comments-dropped-before-compiling]', () => {
  const SHOWN = [
    '```md',
    'A sentence. <!-- claim: shown-in-a-fence -->',
    '```',
    '',
    'Write `<!-- claim: shown-inline -->` after the sentence.',
    '',
  ].join('\n');

  it('drops the claim ids before the page is compiled, and keeps those shown in code', async () => {
    const config = (await import('../../docusaurus.config')).default as Config;
    const preprocess = config.markdown?.preprocessor;
    expect(preprocess).toBeTypeOf('function');
    const filePath = path.join(repositoryRoot, 'docs/page.md');
    const page = preprocess?.({ filePath, fileContent: `${PAGE}\n${SHOWN}` }) ?? '';
    for (const secret of SECRETS) expect(page).not.toContain(secret);
    expect(page).toContain('It gives up after 3 seconds. \n');
    expect(page).toContain('A sentence. <!-- claim: shown-in-a-fence -->');
    expect(page).toContain('`<!-- claim: shown-inline -->`');
    const output = await compileWithSiteOptions(page.replace(/^---[\s\S]*?---\n/, ''), filePath);
    expect(output).toContain('claim: shown-in-a-fence');
    expect(output).toContain('claim: shown-inline');
  });
});

describe("the claim ids of a sample test's titles [claim:cg-sample-title-claims-hidden]", () => {
  it('are left out of the code a docs page shows, which is the file otherwise, as the hover types read it', async () => {
    const config = (await import('../../docusaurus.config')).default as Config;
    const classic = (config.presets ?? []).find(
      (preset) => Array.isArray(preset) && preset[0] === 'classic',
    ) as [string, { docs: { remarkPlugins: unknown[] } }] | undefined;
    const shown: { meta: string; value: string }[] = [];
    const capture = () => (tree: { type: string; children?: unknown[] }) => {
      const visit = (node: {
        type: string;
        children?: unknown[];
        meta?: string;
        value?: string;
      }) => {
        if (node.type === 'code') shown.push({ meta: node.meta ?? '', value: node.value ?? '' });
        (node.children as (typeof node)[] | undefined)?.forEach(visit);
      };
      visit(tree);
    };
    const sample = 'examples/add-a-plugin/test/clock-plugin.test.ts';
    const file = path.join(repositoryRoot, sample);
    const page = [
      `\`\`\`ts title="${sample}" file=<rootDir>/${sample}`,
      '',
      '```',
      '',
      '```ts',
      // Split, so that the claims check does not take it for a title of this file.
      "it('typed in the page [" + "claim:typed-in-the-page]', () => {});",
      '```',
      '',
    ].join('\n');
    await compileWithSiteOptions(page, path.join(repositoryRoot, 'docs/page.md'), [
      ...(classic?.[1].docs.remarkPlugins ?? []),
      capture,
    ]);
    const source = readFileSync(file, 'utf8');
    expect(source).toContain('[claim:gs-add-plugin-clock]');
    const [fromFile, typed] = shown;
    expect(fromFile?.value).not.toContain('[claim:');
    expect(fromFile?.value).toContain(
      "it('answers a question about the time with the clock, in UTC', async () => {",
    );
    // Only the titles changed: the file less its claim ids is what the page shows.
    expect(fromFile?.value).toBe(source.replace(/(?: \[claim:[^\]\s]*\])+/g, '').trimEnd());
    // What the build's hover-types process type-checks is that same text.
    expect(readShownSample(file).trimEnd()).toBe(fromFile?.value);
    // Code written in the page itself is shown as it is.
    expect(typed?.value).toContain('[' + 'claim:typed-in-the-page]');
  });
});

describe('claim tags in TSDoc [claim:contrib-claim-tag-hidden]', () => {
  const messages: string[] = [];
  let comment: string | undefined;
  let tags: string[] = [];

  beforeAll(async () => {
    const dir = path.join(scratch, 'typedoc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'index.ts'),
      [
        '/**',
        ' * Gives up after 3 seconds.',
        ' * @returns Nothing.',
        ' * @claim tsdoc-secret',
        ' * @claim other-secret untested: why',
        ' */',
        'export function giveUp(): void {}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true }, files: ['index.ts'] }),
    );
    // The core's tag definitions, where TypeDoc looks for them: beside the tsconfig. What they
    // extend is resolved from the core, as TypeDoc resolves it there.
    const definitions = JSON.parse(
      readFileSync(path.join(repositoryRoot, 'packages/core/tsdoc.json'), 'utf8'),
    ) as { extends: string[] };
    const fromCore = createRequire(path.join(repositoryRoot, 'packages/core/tsdoc.json'));
    definitions.extends = definitions.extends.map((name) => fromCore.resolve(name));
    writeFileSync(path.join(dir, 'tsdoc.json'), JSON.stringify(definitions));
    const app = await Application.bootstrapWithPlugins({
      entryPoints: [path.join(dir, 'index.ts')],
      tsconfig: path.join(dir, 'tsconfig.json'),
      excludeTags: typedocOptions.excludeTags,
      treatWarningsAsErrors: true,
      name: 'fixture',
      // Source links need a git remote this fixture has no use for (a clone's may be a path).
      disableSources: true,
      logLevel: 'Warn',
    });
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= LogLevel.Warn) messages.push(String(message));
      log(message, level);
    };
    const project = await app.convert();
    const fn = project?.getChildByName('giveUp');
    const signature =
      fn !== undefined && 'signatures' in fn && fn.kind === ReflectionKind.Function
        ? (fn as { signatures?: { comment?: Comment }[] }).signatures?.[0]
        : undefined;
    comment = signature?.comment?.summary.map((part) => part.text).join('');
    tags = signature?.comment?.blockTags.map((tag) => tag.tag) ?? [];
  }, 60_000);

  it('are known to TypeDoc and left out of the API pages, with the rest of the comment kept', () => {
    expect(messages).toEqual([]);
    expect(comment).toBe('Gives up after 3 seconds.');
    expect(tags).toEqual(['@returns']);
  });

  it('keep TypeDoc’s own excluded tags excluded', () => {
    expect([...TYPEDOC_EXCLUDED_TAGS].sort()).toEqual([...OptionDefaults.excludeTags].sort());
    expect(typedocOptions.excludeTags).toContain('@claim');
  });
});
