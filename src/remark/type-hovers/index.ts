/**
 * A rehype plugin for the docs: every TypeScript block filled from a sample file
 * (```ts file=<rootDir>/examples/…) carries the type of each of its identifiers, read from
 * TypeScript at build time (./sample-types.ts). The code block renders them as popups shown on
 * hover and keyboard focus, with CSS only (src/theme/CodeBlock/Content/highlighted-markup.ts), so
 * a page gains no script. `no-hover-types` in a block's meta opts it out. A sample that does not type-check
 * fails the build with the page, the file and TypeScript's message.
 */
import path from 'node:path';
import type { Element, Root, RootContent } from 'hast';
import type { VFile } from 'vfile';
import { encodeTypeHovers } from './encoding';
import { hoverCache } from './hover-cache';
import { typesReadBeside } from './pending';
import { TYPE_HOVERS_PROP } from './prop';
import type { sampleTypes as SampleTypes } from './sample-types';
import { recordBlock } from './stats';

export interface TypeHoversOptions {
  /** The folder `<rootDir>` in a block's `file=` meta stands for (the site's root). */
  rootDir: string;
}

export const OPT_OUT_FLAG = 'no-hover-types';

let sampleTypesModule: Promise<typeof SampleTypes> | undefined;

/**
 * TypeScript takes seconds to load. The site's configuration imports this plugin
 * whether or not it uses it, and the dev server leaves it out: they load with the first block
 * whose types the cache (./hover-cache.ts) does not hold, not with the configuration. A build
 * whose samples did not change never loads them.
 */
function loadSampleTypes(): Promise<typeof SampleTypes> {
  sampleTypesModule ??= import('./sample-types').then((loaded) => loaded.sampleTypes);
  return sampleTypesModule;
}
export const TYPESCRIPT = new Set(['ts', 'tsx', 'typescript']);
/** Docusaurus's magic comments remove lines from the shown code, which would shift offsets. */
export const MAGIC_COMMENT = /\/\/\s*(highlight-|this-line)/;

function languageOf(code: Element): string | undefined {
  const classes = code.properties.className;
  const list = Array.isArray(classes) ? classes : [];
  const language = list.find((name) => String(name).startsWith('language-'));
  return language === undefined ? undefined : String(language).slice('language-'.length);
}

function textOf(node: Element): string {
  return node.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
}

/** The sample file a block was filled from, or undefined for a block written in the page. */
export function sampleFileOf(meta: string, rootDir: string): string | undefined {
  const match = /(?:^|\s)file=(\S+)/.exec(meta);
  if (!match?.[1]) {
    return undefined;
  }
  const file = match[1].replace(/#L\d+(-L\d+)?$/, '').replace('<rootDir>', rootDir);
  return path.resolve(rootDir, file);
}

interface Pass {
  options: TypeHoversOptions;
  /** The blocks to give types, found by {@link visit}. */
  blocks: { code: Element; file: string; text: string }[];
}

/** Adds `pre`'s code to the pass's blocks when it is a TypeScript block filled from a sample. */
function collect(pre: Element, { options, blocks }: Pass): void {
  const code = pre.children.find(
    (child): child is Element => child.type === 'element' && child.tagName === 'code',
  );
  if (!code) {
    return;
  }
  const language = languageOf(code);
  const meta = String((code.data as { meta?: unknown } | undefined)?.meta ?? '');
  if (!language || !TYPESCRIPT.has(language) || meta.split(/\s+/).includes(OPT_OUT_FLAG)) {
    return;
  }
  const file = sampleFileOf(meta, options.rootDir);
  const text = textOf(code);
  if (!file || /#L\d/.test(meta) || MAGIC_COMMENT.test(text)) {
    return;
  }
  blocks.push({ code, file, text });
}

function visit(node: Root | RootContent, pass: Pass): void {
  if (node.type !== 'root' && node.type !== 'element') {
    return;
  }
  if (node.type === 'element' && node.tagName === 'pre') {
    collect(node, pass);
    return;
  }
  node.children.forEach((child) => visit(child, pass));
}

export default function rehypeTypeHovers(options: TypeHoversOptions) {
  return async (tree: Root, file: VFile): Promise<void> => {
    const page = path.relative(options.rootDir, file.path || '(unknown page)');
    const pass: Pass = { options, blocks: [] };
    visit(tree, pass);
    for (const { code, file: sample, text } of pass.blocks) {
      const started = performance.now();
      try {
        const hovers =
          hoverCache().read(sample, text) ??
          (await typesReadBeside(sample, text)) ??
          (await loadSampleTypes())(text, sample);
        code.properties = { ...code.properties, [TYPE_HOVERS_PROP]: encodeTypeHovers(hovers) };
      } catch (error) {
        throw new Error(`Hover types for ${page}: ${(error as Error).message}`, { cause: error });
      } finally {
        recordBlock(performance.now() - started);
      }
    }
  };
}
