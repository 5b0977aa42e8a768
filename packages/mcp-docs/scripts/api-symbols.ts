/**
 * The `get_api_symbol` records, from the packages' sources: one TypeDoc conversion of `@weft/core`
 * with the site's options (the docs model's), which also names the API page the site has for each
 * export, and a second of the other first-party packages' entry points, so `get_api_symbol` knows
 * their exports too and points at their guide and README. The site build writes these pages as
 * Markdown for readers, not as records of signatures and members, so they are read from the source
 * TypeDoc reads for the site.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Application,
  Comment,
  ReflectionKind,
  type DeclarationReflection,
  type SignatureReflection,
  type TypeDocOptions,
} from 'typedoc';
import { typedocOptions } from '@weft-internal/docs-model/typedoc';
import type { ApiMember, ApiSymbol } from '../src/bundle.js';

const KIND_FOLDERS: Partial<Record<ReflectionKind, string>> = {
  [ReflectionKind.Class]: 'classes',
  [ReflectionKind.Interface]: 'interfaces',
  [ReflectionKind.Function]: 'functions',
  [ReflectionKind.TypeAlias]: 'type-aliases',
  [ReflectionKind.Variable]: 'variables',
};

const FOLDER_SECTIONS: Record<string, string> = {
  classes: 'API reference: classes',
  interfaces: 'API reference: interfaces',
  functions: 'API reference: functions',
  'type-aliases': 'API reference: type aliases',
  variables: 'API reference: variables',
};

/** TSDoc as Markdown: `{@link Runtime.init}` becomes `` `Runtime.init` `` (or the link's own text). */
function text(parts: Comment['summary'] | undefined): string {
  if (parts === undefined) return '';
  return Comment.combineDisplayParts(parts)
    .replace(
      /\{@link(?:code|plain)?\s+([^}\s|]+)(?:\s*\|\s*|\s+)?([^}]*)\}/g,
      (_whole, target: string, label: string) =>
        label.trim() === '' ? `\`${target}\`` : label.trim(),
    )
    .trim();
}

function signatureText(name: string, signature: SignatureReflection): string {
  const typeParameters = signature.typeParameters?.length
    ? `<${signature.typeParameters.map((parameter) => parameter.name).join(', ')}>`
    : '';
  const parameters = (signature.parameters ?? [])
    .map(
      (parameter) =>
        // TypeDoc marks a parameter with a default value by its `defaultValue`, not as optional,
        // yet a caller may leave it out all the same: `loadDocsBundle(file = ...)` is `file?`.
        `${parameter.flags.isRest ? '...' : ''}${parameter.name}${parameter.flags.isOptional || parameter.defaultValue !== undefined ? '?' : ''}: ${parameter.type?.toString() ?? 'unknown'}`,
    )
    .join(', ');
  return `${name}${typeParameters}(${parameters}): ${signature.type?.toString() ?? 'void'}`;
}

function commentOf(reflection: DeclarationReflection): Comment | undefined {
  return (
    reflection.comment ?? reflection.signatures?.[0]?.comment ?? reflection.getSignature?.comment
  );
}

function memberOf(member: DeclarationReflection): ApiMember {
  let signature: string;
  if (member.signatures?.length) {
    const modifier = member.flags.isStatic ? 'static ' : '';
    signature = member.signatures
      .map((sig) => `${modifier}${signatureText(member.name, sig)}`)
      .join('\n');
  } else if (member.getSignature) {
    signature = `get ${member.name}(): ${member.getSignature.type?.toString() ?? 'unknown'}`;
  } else {
    const modifiers = `${member.flags.isStatic ? 'static ' : ''}${member.flags.isReadonly ? 'readonly ' : ''}`;
    signature = `${modifiers}${member.name}${member.flags.isOptional ? '?' : ''}: ${member.type?.toString() ?? 'unknown'}`;
  }
  const summary = text(commentOf(member)?.summary).split('\n\n')[0] ?? '';
  return { name: member.name, signature, summary };
}

function headlineOf(symbol: DeclarationReflection): string {
  const typeParameters = symbol.typeParameters?.length
    ? `<${symbol.typeParameters.map((parameter) => parameter.name).join(', ')}>`
    : '';
  switch (symbol.kind) {
    case ReflectionKind.Function:
      return (symbol.signatures ?? [])
        .map((sig) => `function ${signatureText(symbol.name, sig)}`)
        .join('\n');
    case ReflectionKind.Class: {
      const heritage = symbol.extendedTypes?.length
        ? ` extends ${symbol.extendedTypes.map(String).join(', ')}`
        : '';
      return `${symbol.flags.isAbstract ? 'abstract ' : ''}class ${symbol.name}${typeParameters}${heritage}`;
    }
    case ReflectionKind.Interface: {
      const heritage = symbol.extendedTypes?.length
        ? ` extends ${symbol.extendedTypes.map(String).join(', ')}`
        : '';
      return `interface ${symbol.name}${typeParameters}${heritage}`;
    }
    case ReflectionKind.TypeAlias:
      return `type ${symbol.name}${typeParameters} = ${symbol.type?.toString() ?? 'unknown'}`;
    default:
      return `const ${symbol.name}: ${symbol.type?.toString() ?? 'unknown'}`;
  }
}

function exampleOf(comment: Comment | undefined): string | undefined {
  const tag = comment?.getTag('@example');
  if (tag === undefined) return undefined;
  return text(tag.content)
    .replace(/^```\w*\n/, '')
    .replace(/\n```$/, '');
}

/** Where a symbol is documented: core's on its API page, another package's in its guide. */
interface SymbolHome {
  readonly packageName: string;
  readonly docsPath: (folder: string, name: string) => string;
  readonly readme?: string;
}

const CORE_HOME: SymbolHome = {
  packageName: '@weft/core',
  docsPath: (folder, name) => `/api/${folder}/${name}/`,
};

function symbolOf(
  symbol: DeclarationReflection,
  folder: string,
  home: SymbolHome = CORE_HOME,
): ApiSymbol {
  const comment = commentOf(symbol);
  const remarks = comment?.getTag('@remarks');
  const doc = [text(comment?.summary), remarks === undefined ? '' : text(remarks.content)]
    .filter((part) => part !== '')
    .join('\n\n');
  const members = (symbol.children ?? [])
    .filter((member) => !member.flags.isPrivate && !member.flags.isProtected)
    .map(memberOf);
  const example = exampleOf(comment);
  return {
    name: symbol.name,
    kind: ReflectionKind.singularString(symbol.kind).toLowerCase(),
    signature: headlineOf(symbol),
    doc,
    members,
    ...(example === undefined ? {} : { example }),
    packageName: home.packageName,
    docsPath: home.docsPath(folder, symbol.name),
    ...(home.readme === undefined ? {} : { readme: home.readme }),
  };
}

/** The section of an API page's copy in the site build (`api/classes/Runtime.md`). */
export function apiSection(file: string): string {
  const folder = /^api\/([^/]+)\//.exec(file)?.[1];
  return (folder === undefined ? undefined : FOLDER_SECTIONS[folder]) ?? 'API reference';
}

/**
 * Converts the core's entry point (from `rootDir`) with the site's TypeDoc options and returns a
 * record per export, and the page the site's API reference has for each, as its Markdown copy's
 * path in the site build (`api/classes/Runtime.md`). No page is rendered: the pages come from the
 * site build.
 */
export async function readCoreSymbols(
  rootDir: string,
): Promise<{ symbols: ApiSymbol[]; apiPages: string[] }> {
  const {
    id: _id,
    docsPath: _docsPath,
    sidebar: _sidebar,
    plugin: _plugin,
    out: _out,
    ...options
  } = typedocOptions;
  const app = await Application.bootstrapWithPlugins({
    ...options,
    entryPoints: options.entryPoints.map((entry) => join(rootDir, entry)),
    tsconfig: join(rootDir, options.tsconfig),
    // The site's Markdown options are this plugin's: TypeDoc refuses them without it.
    plugin: ['typedoc-plugin-markdown'],
    // Quiet: `npm pack --json` runs this in prepack and reads stdout as JSON.
    logLevel: 'Warn',
    // The site's options are typed for docusaurus-plugin-typedoc, whose lists are plain strings.
  } as TypeDocOptions);
  const project = await app.convert();
  if (project === undefined)
    throw new Error(`TypeDoc could not convert ${options.entryPoints.join(', ')}`);

  const symbols: ApiSymbol[] = [];
  const apiPages: string[] = [];
  for (const child of project.children ?? []) {
    const folder = KIND_FOLDERS[child.kind];
    if (folder === undefined) continue;
    symbols.push(symbolOf(child, folder));
    apiPages.push(`api/${folder}/${child.name}.md`);
  }
  return { symbols, apiPages: apiPages.sort() };
}

/** A first-party package other than the core, as {@link readPackageSymbols} converts it. */
export interface PackageEntryPoints {
  readonly name: string;
  /** Its folder under `packages/`. */
  readonly directory: string;
  /** Its `exports` entries' source files, relative to its folder (`./src/index.ts`). */
  readonly entryPoints: readonly string[];
  /** Its docs page, as a site path. */
  readonly guide: string;
  /** Its README's address (the `homepage` of its package.json). */
  readonly readme: string;
}

/**
 * Every export of the given packages, each naming its package, guide and README: one TypeDoc
 * conversion of all their entry points (no pages rendered, no type errors reported, since each
 * package's own type check owns those).
 */
export async function readPackageSymbols(
  rootDir: string,
  packages: readonly PackageEntryPoints[],
): Promise<ApiSymbol[]> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-mcp-docs-packages-'));
  try {
    const entries = packages.flatMap((entry) =>
      entry.entryPoints.map((file) => ({
        entry,
        file: join(rootDir, 'packages', entry.directory, file),
      })),
    );
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(rootDir, 'packages', 'tsconfig.base.json'),
        compilerOptions: { customConditions: ['weft-source'] },
        files: entries.map(({ file }) => file),
      }),
    );
    const app = await Application.bootstrap({
      entryPoints: entries.map(({ file }) => file),
      tsconfig,
      excludePrivate: true,
      excludeInternal: true,
      skipErrorChecking: true,
      sort: ['source-order'],
      logLevel: 'Error',
    });
    const project = await app.convert();
    if (project === undefined) {
      throw new Error(`TypeDoc could not convert ${entries.map(({ file }) => file).join(', ')}`);
    }
    // One module per entry point, known by its file.
    const byFile = new Map(entries.map((entry) => [entry.file, entry]));
    const modules = (project.children ?? []).map((module) => {
      const file = module.sources?.[0]?.fullFileName;
      const entry = file === undefined ? undefined : byFile.get(file);
      if (entry === undefined) {
        throw new Error(`TypeDoc made a module ${module.name} of no entry point (${file})`);
      }
      return { module, entry: entry.entry };
    });
    const symbols: ApiSymbol[] = [];
    const seen = new Set<string>();
    for (const { module, entry } of modules) {
      const home: SymbolHome = {
        packageName: entry.name,
        docsPath: () => entry.guide,
        readme: entry.readme,
      };
      for (const child of module.children ?? []) {
        const folder = KIND_FOLDERS[child.kind];
        const key = `${entry.name} ${child.name}`;
        if (folder === undefined || seen.has(key)) continue;
        seen.add(key);
        symbols.push(symbolOf(child, folder, home));
      }
    }
    return symbols;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
