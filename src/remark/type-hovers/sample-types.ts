/**
 * The types TypeScript reports for the identifiers of one sample file, read with twoslash (the
 * TypeScript language service over a virtual copy of the file). A sample that does not
 * type-check is an error naming the file, the line and TypeScript's message, so the build that
 * renders it stops instead of showing code that no longer compiles.
 */
import path from 'node:path';
import { createTwoslasher, type TwoslashInstance } from 'twoslash';
import ts from 'typescript';

/** One identifier's type: where it is in the code (UTF-16 offsets) and TypeScript's text. */
export interface TypeHover {
  start: number;
  length: number;
  text: string;
}

/** A sample whose code TypeScript rejects. */
export class SampleTypeError extends Error {
  constructor(
    readonly file: string,
    readonly diagnostics: readonly string[],
  ) {
    super(
      `The sample ${file} does not type-check, so its page cannot show its types:\n${diagnostics
        .map((line) => `  ${line}`)
        .join('\n')}`,
    );
    this.name = 'SampleTypeError';
  }
}

/**
 * The samples' compiler options (examples/tsconfig.json over packages/tsconfig.base.json): the
 * `weft-source` condition resolves `@weft/*` imports to the packages' TypeScript sources, as
 * `npm run typecheck:examples` does, so no package has to be built first.
 */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  customConditions: ['weft-source'],
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  isolatedModules: true,
  noEmit: true,
};

/**
 * One twoslash instance per folder: twoslash names the sample `index.ts` inside its virtual
 * file system's root, so the root must be the sample's own folder for its relative imports
 * (`./agent.js`) to resolve. An instance keeps its language service between samples.
 */
const twoslashers = new Map<string, TwoslashInstance>();

function twoslasherFor(folder: string): TwoslashInstance {
  let twoslasher = twoslashers.get(folder);
  if (!twoslasher) {
    twoslasher = createTwoslasher({
      tsModule: ts,
      vfsRoot: folder,
      compilerOptions: COMPILER_OPTIONS,
      // Errors are reported below with TypeScript's own messages, which twoslash's check omits.
      handbookOptions: { noErrorValidation: true },
    });
    twoslashers.set(folder, twoslasher);
  }
  return twoslasher;
}

/**
 * The type of every identifier in `code`, the contents of the sample file `file` (an absolute
 * path; its folder resolves relative imports). Throws {@link SampleTypeError} when TypeScript
 * reports an error.
 */
export function sampleTypes(
  code: string,
  file: string,
  language: 'ts' | 'tsx' = 'ts',
): TypeHover[] {
  const result = twoslasherFor(path.dirname(file))(code, language);
  if (result.errors.length > 0) {
    throw new SampleTypeError(
      file,
      result.errors.map(
        (error) =>
          `line ${error.line + 1}, column ${error.character + 1}: TS${error.code} ${error.text}`,
      ),
    );
  }
  if (result.code !== code) {
    // twoslash rewrote the code (a `// @…` or `// ---cut---` line): its offsets would not match
    // the code the page shows.
    throw new SampleTypeError(file, [
      'twoslash changed the code (a "// @" or "// ---cut---" comment?); remove that comment or opt the block out with no-hover-types',
    ]);
  }
  return result.hovers.map(({ start, length, text }) => ({ start, length, text }));
}
