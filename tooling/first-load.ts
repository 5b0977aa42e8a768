/**
 * First-load JavaScript and CSS of a built page: the files its HTML references with
 * <script src> and <link rel="stylesheet"> (Docusaurus's runtime, the entry bundle and the
 * stylesheet), sized raw and gzipped at level 9. Shared by the JavaScript budget test and
 * `npm run bench -- bundle`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One page of each type the budgets cover. */
export const FIRST_LOAD_PAGES = [
  '/',
  '/docs/getting-started/',
  '/api/classes/Runtime/',
  '/api/',
  '/plugins/',
] as const;

export type FirstLoadPage = (typeof FIRST_LOAD_PAGES)[number];

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

export interface FirstLoad {
  scripts: FileSize[];
  stylesheets: FileSize[];
  scriptsRaw: number;
  scriptsGzip: number;
  stylesheetsGzip: number;
}

const tagAttribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined);

export function sizeOf(buildDir: string, file: string): FileSize {
  const bytes = readFileSync(path.join(buildDir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** Same-site files referenced by the page's tags of `tagName` that pass `accept`. */
function referencedFiles(
  html: string,
  tagName: string,
  attribute: string,
  accept: (tag: string) => boolean,
): string[] {
  const tags = html.match(new RegExp(`<${tagName}\\b[^>]*>`, 'gi')) ?? [];
  return tags
    .filter(accept)
    .map((tag) => tagAttribute(tag, attribute))
    .filter((url): url is string => url !== undefined && url.startsWith('/'));
}

export function firstLoad(buildDir: string, route: string): FirstLoad {
  const html = readFileSync(path.join(buildDir, route, 'index.html'), 'utf8');
  const scripts = referencedFiles(html, 'script', 'src', () => true).map((file) =>
    sizeOf(buildDir, file),
  );
  const stylesheets = referencedFiles(html, 'link', 'href', (tag) =>
    /\srel=["']?stylesheet/i.test(tag),
  ).map((file) => sizeOf(buildDir, file));
  const sum = (files: FileSize[], key: 'raw' | 'gzip') =>
    files.reduce((total, file) => total + file[key], 0);
  return {
    scripts,
    stylesheets,
    scriptsRaw: sum(scripts, 'raw'),
    scriptsGzip: sum(scripts, 'gzip'),
    stylesheetsGzip: sum(stylesheets, 'gzip'),
  };
}
