/**
 * The bundle's pages, read from the site's build: the Markdown copy the site writes of every docs
 * and API page (`build/docs/guides/production.md`, `build/api/classes/Runtime.md`; the text a
 * reader's "Copy page" gives), with the title and description of the page's HTML and its section
 * in the docs model's sidebar. Nothing here reads or reworks the docs' Markdown sources: samples,
 * links and MDX are as the site made them.
 *
 * A build that lacks a page, has a page the sources no longer do, or is older than a docs file is
 * refused with the command that makes a new one, so no bundle ships without its guides.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import type { DocsPage } from '../src/bundle.js';

/** The environment variable that names the site build folder (`--site-build` wins over it). */
export const SITE_BUILD_ENV = 'WEFT_SITE_BUILD';

/** The command that writes the site build, run at the repository's root. */
export const SITE_BUILD_COMMAND = 'npm run build';

/** A site build the bundle cannot be made from: its message says what is missing and what to run. */
export class SiteBuildError extends Error {
  override readonly name = 'SiteBuildError';
}

/** One docs page of the sidebar: its id (a file under `docs/` without extension) and section. */
export interface SidebarPage {
  readonly id: string;
  readonly section: string;
}

/** The docs pages in the sidebar's reading order, each with its category's label (`Docs` at the top). */
export function sidebarPages(
  items: unknown,
  label = 'Docs',
  into: SidebarPage[] = [],
): SidebarPage[] {
  for (const item of Array.isArray(items) ? items : []) {
    if (typeof item === 'string') into.push({ id: item, section: label });
    else if (typeof item === 'object' && item !== null) {
      const entry = item as {
        type?: string;
        id?: string;
        label?: string;
        items?: unknown;
        link?: { type?: string; id?: string };
      };
      if (entry.type === 'category') {
        const section = entry.label ?? label;
        if (entry.link?.id !== undefined) into.push({ id: entry.link.id, section });
        sidebarPages(entry.items, section, into);
      } else if (entry.type === 'doc' && entry.id !== undefined) {
        into.push({ id: entry.id, section: label });
      }
    }
  }
  return into;
}

/** A doc id's page path: `guides/production` → `/docs/guides/production/`; an `index` names its folder. */
export function docRoute(id: string): string {
  const folder = id.replace(/(^|\/)index$/, '');
  return folder === '' ? '/docs/' : `/docs/${folder}/`;
}

/** The Markdown copy of the page at `route`, relative to the build: `/docs/x/` → `docs/x.md`. */
export function copyFileOf(route: string): string {
  return `${route.replace(/^\/|\/$/g, '')}.md`;
}

/** The page path of a copy: `api/classes/Runtime.md` → `/api/classes/Runtime/`. */
function routeOfCopy(file: string): string {
  return `/${file.replace(/\.md$/, '')}/`;
}

/** The `<title>` (without the site's ` | Weft`) and `<meta name="description">` of a built page. */
export function pageHead(html: string, siteTitle: string): { title: string; description: string } {
  // Character references are decoded by the rules of HTML, which differ in text and attributes.
  const title = decodeHTML(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '').trim();
  const meta = /<meta\b[^>]*\bname=["']?description["']?[^>]*>/.exec(html)?.[0] ?? '';
  const content = /\bcontent=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/.exec(meta);
  const description = decodeHTMLAttribute(
    content?.[1] ?? content?.[2] ?? content?.[3] ?? '',
  ).trim();
  const suffix = ` | ${siteTitle}`;
  return { title: title.endsWith(suffix) ? title.slice(0, -suffix.length) : title, description };
}

/** Every Markdown file under `dir`, relative to it with forward slashes, sorted. */
function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.md'))
    .sort();
}

/** What {@link readSitePages} reads. */
export interface SitePagesSource {
  /** The site build folder, such as `<repository>/build`. */
  readonly siteBuild: string;
  /** The repository root: its `docs/` files are compared in age with their copies. */
  readonly rootDir: string;
  /** The docs model's sidebar items (`sidebars.docs`). */
  readonly sidebar: unknown;
  /** The site's title, which each page's `<title>` ends with. */
  readonly siteTitle: string;
  /** The API pages the core's exports have, relative to the build (`api/classes/Runtime.md`). */
  readonly apiPages: readonly string[];
  /** The section of an API page, by its copy's path. */
  readonly apiSection: (file: string) => string;
}

/** The most named in one line of a refusal: enough to see what happened, not a wall of paths. */
const LISTED = 8;

function listed(files: readonly string[]): string {
  const shown = files.slice(0, LISTED).join(', ');
  return files.length > LISTED ? `${shown} and ${files.length - LISTED} more` : shown;
}

function rebuild(rootDir: string): string {
  return (
    `Build the site first: run \`${SITE_BUILD_COMMAND}\` at the repository's root (${rootDir}), ` +
    `then build this package again.`
  );
}

/**
 * Refuses, before any slow work, a site build folder without the docs' Markdown copies.
 *
 * @throws SiteBuildError naming the folder, what it lacks and the command that writes it.
 */
export function assertSiteBuild(siteBuild: string, rootDir: string): void {
  if (existsSync(join(siteBuild, 'docs.md')) && existsSync(join(siteBuild, 'docs'))) return;
  throw new SiteBuildError(
    `The bundle's pages come from the site build's Markdown copies, and ${siteBuild} has none ` +
      `(${join(siteBuild, 'docs.md')} and ${join(siteBuild, 'docs')}/ are missing). ${rebuild(rootDir)}`,
  );
}

/** The source file of a doc id under `docs/`, if it has one. */
function docsSource(rootDir: string, id: string): string | undefined {
  return ['.md', '.mdx'].map((ext) => join(rootDir, 'docs', `${id}${ext}`)).find(existsSync);
}

/**
 * Every docs page of the sidebar (in its order), then every API page, from the site build.
 *
 * @throws SiteBuildError when the build has no Markdown copies, lacks one, has one no page has
 *   any more, or is older than a docs file.
 */
export function readSitePages(source: SitePagesSource): DocsPage[] {
  const { siteBuild } = source;
  assertSiteBuild(siteBuild, source.rootDir);
  const guides = sidebarPages(source.sidebar).map((page) => ({
    ...page,
    route: docRoute(page.id),
  }));
  const guideCopies = guides.map(({ route }) => copyFileOf(route));
  const builtGuides = [
    'docs.md',
    ...markdownUnder(join(siteBuild, 'docs')).map((f) => `docs/${f}`),
  ];
  const apiCopies = ['api.md', ...source.apiPages];
  const builtApi = existsSync(join(siteBuild, 'api.md'))
    ? ['api.md', ...markdownUnder(join(siteBuild, 'api')).map((f) => `api/${f}`)]
    : [];

  const missing = [...guideCopies, ...apiCopies].filter(
    (file) => !existsSync(join(siteBuild, file)) || !existsSync(join(siteBuild, htmlOf(file))),
  );
  const extra = [
    ...builtGuides.filter((file) => !guideCopies.includes(file)),
    ...builtApi.filter((file) => !apiCopies.includes(file)),
  ];
  const older = guides.flatMap(({ id, route }) => {
    const file = docsSource(source.rootDir, id);
    const copy = join(siteBuild, copyFileOf(route));
    if (file === undefined || !existsSync(copy)) return [];
    const newer = statSync(file).mtimeMs > statSync(copy).mtimeMs;
    return newer ? [relative(source.rootDir, file).split(sep).join('/')] : [];
  });
  const problems = [
    missing.length > 0 ? `it lacks ${listed(missing)}` : '',
    extra.length > 0 ? `it has ${listed(extra)}, which no docs page or export has any more` : '',
    older.length > 0 ? `it is older than ${listed(older)}` : '',
  ].filter((problem) => problem !== '');
  if (problems.length > 0) {
    throw new SiteBuildError(
      `The site build in ${siteBuild} is not the docs' own: ${problems.join('; ')}. ${rebuild(source.rootDir)}`,
    );
  }

  const page = (file: string, section: string, kind: DocsPage['kind']): DocsPage => {
    const head = pageHead(readFileSync(join(siteBuild, htmlOf(file)), 'utf8'), source.siteTitle);
    const markdown = `${readFileSync(join(siteBuild, file), 'utf8').trim()}\n`;
    return {
      path: routeOfCopy(file),
      title: head.title,
      // An API page's HTML description is the first line of its summary: the bundle has it whole.
      description:
        kind === 'api' ? (leadParagraph(markdown) ?? head.description) : head.description,
      section,
      kind,
      markdown,
    };
  };
  return [
    ...guides.map(({ route, section }) => page(copyFileOf(route), section, 'guide')),
    ...apiCopies.map((file) => page(file, source.apiSection(file), 'api')),
  ];
}

/** The paragraph under a page's title, on one line, if the page opens with prose. */
export function leadParagraph(markdown: string): string | undefined {
  const lead =
    markdown
      .replace(/^# .*\n+/, '')
      .split(/\n\s*\n/)[0]
      ?.trim() ?? '';
  if (lead === '' || /^(```|~~~|\||#|<)/.test(lead)) return undefined;
  return lead.replace(/\s*\n\s*/g, ' ');
}

/** The built HTML of a copy's page: `docs/x.md` → `docs/x/index.html`. */
function htmlOf(file: string): string {
  return `${file.replace(/\.md$/, '')}/index.html`;
}

/**
 * A link of the error registries' Markdown, written relative to the errors page
 * (`../guides/production.md#one-hung-dependency`), as a page path (`/docs/guides/production/#…`);
 * a link to no page of the sidebar stays as written.
 */
export function registryLinks(markdown: string, sidebar: unknown): string {
  const ids = new Set(sidebarPages(sidebar).map(({ id }) => id));
  return markdown.replace(
    /\]\((?!https?:|\/|#)([^)\s]+?)\.mdx?(#[^)\s]*)?\)/g,
    (whole, target: string, anchor?: string) => {
      const id = posix.normalize(posix.join('reference', target));
      return ids.has(id) ? `](${docRoute(id)}${anchor ?? ''})` : whole;
    },
  );
}
