/**
 * Reading the production build (build/) for the build-output tests: files, route pages and the
 * tags in their HTML. Docusaurus minifies the HTML (unquoted attributes), so tags are parsed
 * with a small attribute reader rather than string matching.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const buildDir = path.resolve(__dirname, '../../../build');

export function buildPath(sitePath: string): string {
  // split() always yields at least one part: the path before any query or hash.
  return path.join(buildDir, decodeURIComponent(sitePath.split(/[?#]/)[0]!));
}

/** build/ must exist; the tests describe a build, they do not make one. */
export function assertBuildExists(): void {
  if (!existsSync(path.join(buildDir, 'index.html'))) {
    throw new Error(`No build in ${buildDir}: run "npm run build" before "npm run test:build".`);
  }
}

/** The index.html a trailing-slash route is served from. */
export function routeHtmlFile(route: string): string {
  return path.join(buildPath(route), 'index.html');
}

export function readRouteHtml(route: string): string {
  return readFileSync(routeHtmlFile(route), 'utf8');
}

export function fileSize(sitePath: string): number {
  return statSync(buildPath(sitePath)).size;
}

export interface Tag {
  name: string;
  attributes: Record<string, string>;
}

const attributePattern = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The value of a tag's attribute; a missing attribute fails the test that asked for it. */
export function attributeOf(tag: Tag, name: string): string {
  const value = tag.attributes[name];
  if (value === undefined) {
    throw new Error(`<${tag.name}> has no ${name} attribute`);
  }
  return value;
}

/** Every opening tag named `tagName` in the document, with its attributes. */
export function findTags(html: string, tagName: string): Tag[] {
  const tags: Tag[] = [];
  const tagPattern = new RegExp(`<${tagName}\\b((?:[^>"']|"[^"]*"|'[^']*')*)>`, 'gi');
  for (const match of html.matchAll(tagPattern)) {
    const attributes: Record<string, string> = {};
    // A closing "/" marks a self-closing tag only after a space, a quote or the tag's name: in
    // an unquoted value it is part of the value (the build writes `href=/docs/`).
    const source = (match[1] ?? '').replace(/(^|[\s"'])\/\s*$/, '$1');
    for (const attribute of source.matchAll(attributePattern)) {
      const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      attributes[attribute[1]!.toLowerCase()] = decodeEntities(value);
    }
    tags.push({ name: tagName.toLowerCase(), attributes });
  }
  return tags;
}

/** The <head> part of a document. */
export function headOf(html: string): string {
  const end = html.search(/<\/head>|<body[\s>]/i);
  return end === -1 ? html : html.slice(0, end);
}
