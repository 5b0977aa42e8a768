/**
 * The hover-types step (src/remark/type-hovers): which blocks it gives types, the types it
 * reads, the error a sample that does not type-check makes, and how the code block cuts
 * Prism's tokens at the typed identifiers.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Element, Root } from 'hast';
import type { Token } from 'prism-react-renderer';
import { describe, expect, it } from 'vitest';
import { VFile } from 'vfile';
import rehypeTypeHovers from '../../src/remark/type-hovers';
import { generateHoverTypes } from '../../tooling/assets/generate-hover-types';
import { decodeTypeHovers, encodeTypeHovers } from '../../src/remark/type-hovers/encoding';
import { TYPE_HOVERS_PROP } from '../../src/remark/type-hovers/prop';
import { withTypeHovers } from '../../src/theme/CodeBlock/Content/type-hover-tokens';

const siteDir = path.resolve(__dirname, '../..');
const SAMPLE = 'examples/getting-started/scripted-model.ts';

/** A page holding one fenced block, as the docs' MDX hands it to rehype plugins. */
function pageWithBlock(code: string, meta: string, language = 'ts'): { tree: Root; code: Element } {
  const codeElement: Element = {
    type: 'element',
    tagName: 'code',
    properties: { className: [`language-${language}`] },
    children: [{ type: 'text', value: code }],
    data: { meta } as Element['data'],
  };
  const tree: Root = {
    type: 'root',
    children: [{ type: 'element', tagName: 'pre', properties: {}, children: [codeElement] }],
  };
  return { tree, code: codeElement };
}

async function run(tree: Root): Promise<void> {
  const page = new VFile({ path: path.join(siteDir, 'docs/guide.md') });
  await rehypeTypeHovers({ rootDir: siteDir })(tree, page);
}

describe('rehype-type-hovers', () => {
  // The first block a run transforms loads TypeScript and builds its language service.
  it('gives a block filled from a sample the type of each identifier [claim:contributing-hover-types-weft-source]', async () => {
    const code = readFileSync(path.join(siteDir, SAMPLE), 'utf8');
    const page = pageWithBlock(code, `title="${SAMPLE}" file=<rootDir>/${SAMPLE}`);
    await run(page.tree);
    const hovers = decodeTypeHovers(String(page.code.properties[TYPE_HOVERS_PROP]));
    const at = (name: string) =>
      hovers.find(({ start, length }) => code.slice(start, start + length) === name);
    // The sample declares this signature itself.
    expect(at('createScriptedModel')?.text).toBe(
      'function createScriptedModel(): ScriptedModelProvider',
    );
    // Resolved through the weft-source condition to the testing package's class.
    expect(at('ScriptedModelProvider')?.text).toContain('class ScriptedModelProvider');
    expect(hovers.length).toBeGreaterThan(10);
  }, 60_000);

  it('fails on a sample that does not type-check, naming the page, the file and the error [claim:contributing-hover-types-build-fails]', async () => {
    const broken = `export const attempts: number = 'three';\n`;
    const page = pageWithBlock(broken, 'file=<rootDir>/examples/getting-started/broken.ts');
    let thrown: unknown;
    try {
      await run(page.tree);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    expect(message).toContain('docs/guide.md');
    expect(message).toContain(path.join(siteDir, 'examples/getting-started/broken.ts'));
    expect(message).toContain(
      "line 1, column 14: TS2322 Type 'string' is not assignable to type 'number'.",
    );
  });

  it("fails the build's hover-types step on such a sample, naming the pages that show it, the file and the error [claim:contributing-hover-types-build-fails]", async () => {
    const docs = mkdtempSync(path.join(tmpdir(), 'hover-docs-'));
    try {
      const sample = 'examples/getting-started/broken.ts';
      const fence = `\`\`\`ts title="${sample}" file=<rootDir>/${sample}\n\n\`\`\`\n`;
      writeFileSync(path.join(docs, 'guide.md'), `# Guide\n\n${fence}`);
      writeFileSync(path.join(docs, 'other.md'), `# Other\n\n${fence}`);
      const broken = `export const attempts: number = 'three';\n`;
      const failure = generateHoverTypes(docs, () => broken);
      await expect(failure).rejects.toThrow(
        `Hover types for ${path.relative(siteDir, path.join(docs, 'guide.md'))}, ${path.relative(siteDir, path.join(docs, 'other.md'))}: The sample ${path.join(siteDir, sample)} does not type-check`,
      );
      await expect(failure).rejects.toThrow(
        "line 1, column 14: TS2322 Type 'string' is not assignable to type 'number'.",
      );
    } finally {
      rmSync(docs, { recursive: true, force: true });
    }
  });

  it('leaves out blocks marked no-hover-types, written in the page, line ranges, highlight comments and other languages [claim:contributing-hover-types-opt-out] [claim:contributing-hover-types-not-given]', async () => {
    const code = readFileSync(path.join(siteDir, SAMPLE), 'utf8');
    const optedOut = pageWithBlock(code, `file=<rootDir>/${SAMPLE} no-hover-types`);
    const inline = pageWithBlock(`const attempts: number = 'three';\n`, 'title="inline.ts"');
    const javascript = pageWithBlock(code, `file=<rootDir>/${SAMPLE}`, 'js');
    const lineRange = pageWithBlock(
      code.split('\n').slice(0, 3).join('\n'),
      `file=<rootDir>/${SAMPLE}#L1-L3`,
    );
    const highlighted = pageWithBlock(
      `// highlight-next-line\n${code}`,
      `file=<rootDir>/${SAMPLE}`,
    );
    for (const page of [optedOut, inline, javascript, lineRange, highlighted]) {
      await run(page.tree);
      expect(page.code.properties[TYPE_HOVERS_PROP]).toBeUndefined();
    }
  });
});

describe('hover data in the page', () => {
  it('keeps each type text once and decodes to the same hovers', () => {
    const hovers = [
      { start: 6, length: 5, text: 'const agent: Agent' },
      { start: 20, length: 5, text: 'const agent: Agent' },
      { start: 30, length: 2, text: 'let id: string' },
    ];
    const encoded = encodeTypeHovers(hovers);
    expect(encoded.match(/const agent: Agent/g)).toHaveLength(1);
    expect(decodeTypeHovers(encoded)).toEqual(hovers);
  });
});

describe('withTypeHovers', () => {
  const plain = (content: string): Token => ({ types: ['plain'], content });

  it('cuts tokens at typed identifiers, counting the newline between lines', () => {
    // "const agent = make()\nagent.run()": Prism's plain text can hold several words.
    const lines: Token[][] = [
      [{ types: ['keyword'], content: 'const' }, plain(' agent = '), plain('make'), plain('()')],
      [plain('agent'), plain('.run()')],
    ];
    const result = withTypeHovers(lines, [
      { start: 6, length: 5, text: 'const agent: Agent' },
      { start: 21, length: 5, text: 'const agent: Agent' },
      { start: 27, length: 3, text: '(method) Agent.run(): void' },
    ]);
    expect(result.map((line) => line.map((token) => token.content))).toEqual([
      ['const', ' ', 'agent', ' = ', 'make', '()'],
      ['agent', '.', 'run', '()'],
    ]);
    const typed = result.flat().filter((token) => token.typeHover);
    expect(typed.map((token) => [token.content, token.typeHover])).toEqual([
      ['agent', { text: 'const agent: Agent' }],
      ['agent', { text: 'const agent: Agent' }],
      ['run', { text: '(method) Agent.run(): void' }],
    ]);
    expect(result[0]![2]!.types).toEqual(['plain']);
  });

  it('counts an empty line, which Prism gives as one "\\n" token, as its newline alone', () => {
    // "a\n\nb": Prism's lines are [a], ["\n"], [b].
    const result = withTypeHovers(
      [[plain('a')], [plain('\n')], [plain('b')]],
      [{ start: 3, length: 1, text: 'const b: number' }],
    );
    expect(result[2]![0]!.typeHover?.text).toBe('const b: number');
  });

  it('gives no type to a span that does not fall on whole tokens of its length', () => {
    const result = withTypeHovers([[plain('abc')]], [{ start: 1, length: 5, text: 'x' }]);
    expect(result.flat().some((token) => token.typeHover)).toBe(false);
    expect(
      result
        .flat()
        .map((token) => token.content)
        .join(''),
    ).toBe('abc');
  });
});
