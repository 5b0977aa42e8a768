/**
 * The guides as the bundle carries them: each `docs/` file as Markdown with its title as a
 * heading, every sample the site embeds from `examples/` (a `file=<rootDir>/…` fence) filled in,
 * and relative `.md` links turned into the site's paths, as the site's own Markdown copies do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { links } from '@weft-internal/docs-model/site';
import type { DocsPage } from '../src/bundle.js';

/** Front matter fields the pages use, read without a YAML parser (they are one line each). */
export function splitFrontMatter(source: string): { fields: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const field = /^([\w-]+):\s*(.*)$/.exec(line);
    if (field) fields[field[1]!] = field[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return { fields, body: source.slice(match[0].length) };
}

/** `guides/production.md` → `/docs/guides/production/`; `index.md` files name their folder. */
export function docsRoute(fileFromDocs: string, slug?: string): string {
  if (slug !== undefined) return `/docs${slug.replace(/\/?$/, '/')}`;
  const id = fileFromDocs
    .split(sep)
    .join('/')
    .replace(/\.mdx?$/, '')
    .replace(/(^|\/)index$/, '');
  return id === '' ? '/docs/' : `/docs/${id}/`;
}

/**
 * The page without its claim ids (`<!-- claim: id -->`): they link a sentence to the tests that
 * check it, for the repository's contributors; the site leaves them out of its HTML too.
 */
export function withoutClaimIds(markdown: string): string {
  return markdown.replace(/[ \t]*<!--\s*claim:[\s\S]*?-->/g, '');
}

/**
 * Fills each `file=<rootDir>/…` fence with the file it names, as the site does: an indented
 * fence too (a sample in a list item), its lines indented as the fence is. A fence inside
 * another fence (a page showing the syntax) is text, and stays as written.
 */
export function embedSamples(markdown: string, rootDir: string): string {
  const out: string[] = [];
  /** The fence being read: its marker and indent, and the file to fill it with, if any. */
  let open: { marker: string; indent: string; file?: string; skipped: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^([ \t]*)(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === undefined) {
      out.push(line);
      if (fence === null) continue;
      const [, indent = '', marker = '', info = ''] = fence;
      const file = /(^|\s)file=<rootDir>\/(\S+)/.exec(info);
      open = { marker, indent, skipped: [] };
      if (file !== null) {
        // The fence line keeps its language and title; `file=` and the site's flags after it go.
        out[out.length - 1] = `${indent}${marker}${info.slice(0, file.index).trimEnd()}`;
        open.file = file[2]!;
      }
      continue;
    }
    const closes =
      fence !== null &&
      fence[3]!.trim() === '' &&
      fence[2]![0] === open.marker[0] &&
      fence[2]!.length >= open.marker.length;
    if (!closes) {
      if (open.file === undefined) out.push(line);
      else open.skipped.push(line);
      continue;
    }
    if (open.file !== undefined) {
      const code = readFileSync(join(rootDir, open.file), 'utf8').replace(/\n$/, '');
      const indent = open.indent;
      out.push(...code.split('\n').map((codeLine) => (codeLine === '' ? '' : indent + codeLine)));
    }
    out.push(line);
    open = undefined;
  }
  // A fence left open to the end is not filled: what was in it stays.
  if (open?.file !== undefined) out.push(...open.skipped);
  return out.join('\n');
}

/** Values a page may import and use in an MDX expression, by the name it imports them as. */
export type MdxScope = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** What the pages import from the docs model for their links. */
const PAGE_SCOPE: MdxScope = { links };

/**
 * An MDX expression the pages write in a link: `links.chat`, or a template such as
 * `` `${links.repository}/issues` ``, as the text it stands for.
 */
function evaluateExpression(expression: string, scope: MdxScope): string {
  const value = (name: string, key: string): string => {
    const found = scope[name]?.[key];
    if (found === undefined) {
      throw new Error(
        `docs-pages: cannot resolve ${name}.${key} in the MDX expression {${expression}}`,
      );
    }
    return found;
  };
  const template = /^`(.*)`$/s.exec(expression.trim());
  if (template !== null) {
    return template[1]!.replace(/\$\{\s*(\w+)\.(\w+)\s*\}/g, (_whole, name: string, key: string) =>
      value(name, key),
    );
  }
  const member = /^(\w+)\.(\w+)$/.exec(expression.trim());
  if (member === null) {
    throw new Error(`docs-pages: cannot read the MDX expression {${expression}} as Markdown`);
  }
  return value(member[1]!, member[2]!);
}

/**
 * A page's MDX as Markdown, as the site's Markdown copies have it: its `import` lines go, as do
 * the site's interactive components on lines of their own (`<RunPanel />`) and the wrappers the
 * site puts around wide tables; a link written in JSX with an imported value
 * (`<a href={links.chat}>Discord</a>`) becomes a Markdown link to that value. Fenced code stays
 * as written.
 */
export function mdxAsMarkdown(markdown: string, scope: MdxScope = PAGE_SCOPE): string {
  const out: string[] = [];
  let inCode = false;
  let openWrappers = 0;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
    if (inCode || /^\s*(```|~~~)/.test(line)) {
      out.push(line);
      continue;
    }
    if (/^import\s.+\sfrom\s+['"][^'"]+['"];?\s*$/.test(line)) continue;
    if (/^\s*<[A-Z][\w.]*(\s[^<>]*)?\/>\s*$/.test(line)) continue;
    if (/^\s*<div className="table-region"[^<>]*>\s*$/.test(line)) {
      openWrappers += 1;
      continue;
    }
    if (openWrappers > 0 && /^\s*<\/div>\s*$/.test(line)) {
      openWrappers -= 1;
      continue;
    }
    out.push(
      line.replace(
        /<a href=\{(`[^`]*`|[\w.]+)\}>(.*?)<\/a>/g,
        (_whole, expression: string, text: string) =>
          `[${text}](${evaluateExpression(expression, scope)})`,
      ),
    );
  }
  return out.join('\n');
}

/** Rewrites relative links to Markdown files as site paths, with `routeOf` naming each file's page. */
export function absoluteLinks(
  markdown: string,
  fromFile: string,
  routeOf: (file: string) => string | undefined,
): string {
  return markdown.replace(
    /\]\((?!https?:|\/|#)([^)\s]+?\.mdx?)(#[^)\s]*)?\)/g,
    (whole, target: string, anchor?: string) => {
      const route = routeOf(posix.normalize(posix.join(posix.dirname(fromFile), target)));
      return route === undefined ? whole : `](${route}${anchor ?? ''})`;
    },
  );
}

/** The sidebar category of each doc id, such as `guides/production` → `Guides`. */
export function sectionsFromSidebar(
  items: unknown,
  label = 'Docs',
  into = new Map<string, string>(),
): Map<string, string> {
  for (const item of Array.isArray(items) ? items : []) {
    if (typeof item === 'string') into.set(item, label);
    else if (typeof item === 'object' && item !== null) {
      const entry = item as {
        type?: string;
        id?: string;
        label?: string;
        items?: unknown;
        link?: { id?: string };
      };
      if (entry.type === 'category') {
        if (entry.link?.id !== undefined) into.set(entry.link.id, entry.label ?? label);
        sectionsFromSidebar(entry.items, entry.label ?? label, into);
      } else if (entry.type === 'doc' && entry.id !== undefined) into.set(entry.id, label);
    }
  }
  return into;
}

function docsFiles(docsDir: string): string[] {
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.mdx?$/.test(file))
    .sort();
}

/** Each file under `docs/` (such as `guides/production.md`) to its page's path. */
export function guideRoutes(rootDir: string): Map<string, string> {
  const docsDir = join(rootDir, 'docs');
  return new Map(
    docsFiles(docsDir).map((file) => {
      const { fields } = splitFrontMatter(readFileSync(join(docsDir, file), 'utf8'));
      return [file.split(sep).join('/'), docsRoute(file, fields.slug)];
    }),
  );
}

/** Every page of `docs/`, in file order. */
export function readGuidePages(rootDir: string, sidebarItems: unknown): DocsPage[] {
  const docsDir = join(rootDir, 'docs');
  const files = docsFiles(docsDir);
  const sections = sectionsFromSidebar(sidebarItems);
  const parsed = files.map((file) => {
    const { fields, body } = splitFrontMatter(readFileSync(join(docsDir, file), 'utf8'));
    const posixFile = file.split(sep).join('/');
    return { file: posixFile, fields, body, route: docsRoute(file, fields.slug) };
  });
  const routes = new Map(parsed.map(({ file, route }) => [file, route]));
  return parsed.map(({ file, fields, body, route }) => {
    const id = file.replace(/\.mdx?$/, '');
    const title = fields.title ?? fields.sidebar_label ?? id;
    const markdown = absoluteLinks(
      embedSamples(mdxAsMarkdown(withoutClaimIds(body)), rootDir),
      file,
      (target) => routes.get(target),
    );
    return {
      path: route,
      title,
      description: fields.description ?? '',
      section: sections.get(id) ?? 'Docs',
      kind: 'guide' as const,
      markdown: `# ${title}\n\n${markdown.trim()}\n`,
    };
  });
}

/** The path of `file` relative to `dir`, with forward slashes. */
export function posixRelative(dir: string, file: string): string {
  return relative(dir, file).split(sep).join('/');
}
