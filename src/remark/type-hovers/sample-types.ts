/**
 * The types TypeScript reports for the identifiers of one sample file, read from one TypeScript
 * language service over the whole samples project (examples/tsconfig.json), so the packages'
 * sources and the libraries' declarations are loaded and checked once per build, not once per
 * block. A sample that does not type-check is an error naming the file, the line and
 * TypeScript's message, so the build that renders it stops instead of showing code that no
 * longer compiles.
 *
 * Answers are kept on disk by content (./hover-cache.ts): a build whose samples and their inputs
 * did not change reads every block's types from there and never starts TypeScript.
 */
import path from 'node:path';
import ts from 'typescript';
import { hoverCache } from './hover-cache';

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

const siteDir = path.resolve(__dirname, '../../..');
/** The samples' project: its compiler options resolve `@weft/*` to the packages' sources. */
export const SAMPLES_TSCONFIG = path.join(siteDir, 'examples/tsconfig.json');

function readProject(): ts.ParsedCommandLine {
  const config = ts.readConfigFile(SAMPLES_TSCONFIG, (file) => ts.sys.readFile(file));
  if (config.error) {
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  }
  return ts.parseJsonConfigFileContent(config.config, ts.sys, path.dirname(SAMPLES_TSCONFIG));
}

/**
 * The language service reads files from disk, except the code a caller passes for a sample:
 * that is kept as an overlay, so a block's text is what is typed even when it is not yet saved.
 */
class SamplesProject {
  private readonly parsed = readProject();
  private readonly overlays = new Map<string, { code: string; version: number }>();
  /**
   * The samples asked about: the program's root files. The other files of the samples' project,
   * their tests among them, are left out unless a sample imports them, so the program loads and
   * binds only what the shown samples need.
   */
  private readonly roots = new Set<string>();
  private readonly service: ts.LanguageService;
  /**
   * Bumped whenever an overlay changes. The language service asks for it before every question
   * and, while it is unchanged, skips comparing every file of the project with its program.
   */
  private projectVersion = 0;

  constructor() {
    const host: ts.LanguageServiceHost = {
      getProjectVersion: () => String(this.projectVersion),
      getCompilationSettings: () => ({ ...this.parsed.options, noEmit: true }),
      getScriptFileNames: () => [...this.roots],
      getScriptVersion: (file) => String(this.overlays.get(file)?.version ?? 0),
      getScriptSnapshot: (file) => {
        const overlay = this.overlays.get(file);
        const text = overlay ? overlay.code : ts.sys.readFile(file);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => path.dirname(SAMPLES_TSCONFIG),
      getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
      fileExists: (file) => this.overlays.has(file) || ts.sys.fileExists(file),
      readFile: (file) => this.overlays.get(file)?.code ?? ts.sys.readFile(file),
      readDirectory: (...args) => ts.sys.readDirectory(...args),
      directoryExists: (folder) => ts.sys.directoryExists(folder),
      getDirectories: (folder) => ts.sys.getDirectories(folder),
      realpath: (file) => ts.sys.realpath?.(file) ?? file,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Makes `code` the contents of `file` for the next questions, unless it already is. */
  use(file: string, code: string): void {
    if (!this.roots.has(file)) {
      this.roots.add(file);
      this.projectVersion += 1;
    }
    const current = this.overlays.get(file);
    if (current?.code === code) {
      return;
    }
    if (!current && ts.sys.readFile(file) === code) {
      return;
    }
    this.overlays.set(file, { code, version: (current?.version ?? 0) + 1 });
    this.projectVersion += 1;
  }

  types(code: string, file: string): TypeHover[] {
    this.use(file, code);
    const diagnostics = [
      ...this.service.getSyntacticDiagnostics(file),
      ...this.service.getSemanticDiagnostics(file),
    ];
    if (diagnostics.length > 0) {
      throw new SampleTypeError(file, diagnostics.map(describeDiagnostic));
    }
    const source = this.service.getProgram()?.getSourceFile(file);
    if (!source) {
      throw new SampleTypeError(file, [`TypeScript could not read ${file}`]);
    }
    const hovers: TypeHover[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        const start = node.getStart(source, false);
        const info = this.service.getQuickInfoAtPosition(file, start);
        if (info?.displayParts) {
          const text = info.displayParts.map((part) => part.text).join('');
          hovers.push({ start, length: node.getWidth(source), text });
        }
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(source, visit);
    return hovers;
  }
}

function describeDiagnostic(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) {
    return `TS${diagnostic.code} ${message}`;
  }
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `line ${line + 1}, column ${character + 1}: TS${diagnostic.code} ${message}`;
}

let project: SamplesProject | undefined;

/**
 * Makes each code the contents of its sample file for the questions that follow, before the
 * first of them: the language service builds its program, and checks what it needs, once for all
 * of them, where overlays given one sample at a time would each make it build a new program and
 * check everything again (a shown sample differs from its file when the page drops its tests'
 * claim ids).
 */
export function expectSamples(samples: Iterable<readonly [file: string, code: string]>): void {
  project ??= new SamplesProject();
  for (const [file, code] of samples) project.use(file, code);
}

/**
 * The type of every identifier in `code`, the contents of the sample file `file` (an absolute
 * path inside the samples project). Throws {@link SampleTypeError} when TypeScript reports an
 * error. The file's own extension decides whether TypeScript reads it as TSX.
 */
export function sampleTypes(code: string, file: string): TypeHover[] {
  const cache = hoverCache();
  const cached = cache.read(file, code);
  if (cached) {
    return cached;
  }
  project ??= new SamplesProject();
  const hovers = project.types(code, file);
  cache.write(file, code, hovers);
  return hovers;
}
