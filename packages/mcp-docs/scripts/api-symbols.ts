/**
 * The API reference as the bundle carries it, from one TypeDoc run with the site's options:
 * the pages typedoc-plugin-markdown writes (the same Markdown the site's `/api/` pages are
 * built from) and, from the same converted project, one record per export of `@weft/core`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
import { typedocOptions, unescapeMarkdown } from '../../../src/config/typedoc.js';
import type { ApiMember, ApiSymbol, DocsPage } from '../src/bundle.js';
import { absoluteLinks, splitFrontMatter } from './docs-pages.js';

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
        `${parameter.flags.isRest ? '...' : ''}${parameter.name}${parameter.flags.isOptional ? '?' : ''}: ${parameter.type?.toString() ?? 'unknown'}`,
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

function symbolOf(symbol: DeclarationReflection, folder: string): ApiSymbol {
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
    docsPath: `/api/${folder}/${symbol.name}/`,
  };
}

/** `classes/Runtime.md` → `/api/classes/Runtime/`, `index.md` → `/api/`. */
function apiRoute(file: string): string {
  const id = file.replace(/\.md$/, '').replace(/(^|\/)index$/, '');
  return id === '' ? '/api/' : `/api/${id}/`;
}

/** Runs TypeDoc over the core's entry point (from `rootDir`) and returns its pages and symbols. */
export async function readApiReference(
  rootDir: string,
): Promise<{ pages: DocsPage[]; symbols: ApiSymbol[] }> {
  const out = mkdtempSync(join(tmpdir(), 'weft-mcp-docs-api-'));
  try {
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
      plugin: ['typedoc-plugin-markdown'],
      outputs: [{ name: 'markdown', path: out }],
      // Quiet: `npm pack --json` runs this in prepack and reads stdout as JSON.
      logLevel: 'Warn',
      // The site's options are typed for docusaurus-plugin-typedoc, whose lists are plain strings.
    } as TypeDocOptions);
    const project = await app.convert();
    if (project === undefined)
      throw new Error(`TypeDoc could not convert ${options.entryPoints.join(', ')}`);
    await app.generateOutputs(project);

    const symbols: ApiSymbol[] = [];
    for (const child of project.children ?? []) {
      const folder = KIND_FOLDERS[child.kind];
      if (folder !== undefined) symbols.push(symbolOf(child, folder));
    }

    const files = readdirSync(out, { recursive: true, encoding: 'utf8' })
      .map((file) => file.split('\\').join('/'))
      .filter((file) => file.endsWith('.md'))
      .sort();
    const routes = new Set(files);
    const pages = files.map((file): DocsPage => {
      const { fields, body } = splitFrontMatter(readFileSync(join(out, file), 'utf8'));
      const heading = /^# (.+)$/m.exec(body)?.[1];
      const title = fields.title ?? unescapeMarkdown(heading ?? 'API reference');
      const folder = file.includes('/') ? file.split('/')[0]! : '';
      const markdown = absoluteLinks(body, file, (target) =>
        routes.has(target) ? apiRoute(target) : undefined,
      );
      const summary =
        markdown
          .replace(/^# .+$/m, '')
          .trim()
          .split('\n\n')[0] ?? '';
      return {
        path: apiRoute(file),
        title,
        description:
          summary.startsWith('```') || summary.startsWith('|') ? '' : summary.replace(/\n/g, ' '),
        section: FOLDER_SECTIONS[folder] ?? 'API reference',
        kind: 'api',
        markdown: markdown.trim() + '\n',
      };
    });
    return { pages, symbols };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
