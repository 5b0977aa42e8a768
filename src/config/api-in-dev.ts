/**
 * The API reference under `npm start`: left out unless `DEV_API_PAGES=true`.
 *
 * Its generated pages are about two thirds of the site's Markdown pages, and the dev server
 * compiles every page before it serves the first one, so leaving them out shortens each start
 * (measured with `npm run bench -- dev`; see "What `npm start` leaves out" in the contributing
 * guide). The API docs instance then serves one stand-in page at /api/, written here, which says
 * why the pages are missing and how to get them; a link into /api/ from a guide lands on the
 * not-found page, which says the same (src/theme/NotFound/Content). A build always has the pages.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_API_PAGES_COMMAND } from './api-in-dev-command';
import {
  API_OUT_DIR,
  API_ROUTE_BASE_PATH,
  API_SIDEBAR_FILE,
} from '@weft-internal/docs-model/typedoc';
import type { SiteEnv } from './env';

/** Where the stand-in page is written, site-relative (gitignored, like every .cache/ folder). */
export const API_DEV_STAND_IN_DIR = '.cache/api-dev-stand-in';

/** True when this process is the dev server and serves the stand-in instead of the API pages. */
export function apiPagesLeftOut(env: SiteEnv): boolean {
  return env.devServer && !env.devApiPages;
}

/** The folder the API docs instance reads, site-relative. */
export function apiDocsDir(env: SiteEnv): string {
  return apiPagesLeftOut(env) ? API_DEV_STAND_IN_DIR : API_OUT_DIR;
}

/** The generated sidebar module the API docs instance's sidebar lists, site-relative. */
export function apiSidebarFile(env: SiteEnv): string {
  return `${apiDocsDir(env)}/${API_SIDEBAR_FILE}`;
}

/** The stand-in's Markdown; `publishedUrl` is the site's address, to point at the live pages. */
export function apiStandInPage(publishedUrl: string): string {
  const published = `${publishedUrl.replace(/\/$/, '')}/${API_ROUTE_BASE_PATH}/`;
  return `---
title: API reference
---

# API reference

\`npm start\` leaves the API reference out, so the dev server starts faster: its pages are
generated from the TSDoc comments of \`packages/core\`, not written here.

- To see them while you edit, stop the dev server and start it with \`${DEV_API_PAGES_COMMAND}\`.
  It also regenerates them when you edit a file under \`packages/core/src\`.
- To see the site as readers get it, run \`npm run build && npm run serve\`.
- The published reference is at [${published}](${published}).
`;
}

/**
 * Writes the stand-in page and its (empty) generated sidebar into {@link API_DEV_STAND_IN_DIR},
 * only when they differ from what is there, so the dev server's watcher sees no change.
 */
export function writeApiStandIn(siteDir: string, publishedUrl: string): void {
  const dir = path.join(siteDir, API_DEV_STAND_IN_DIR);
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['index.md', apiStandInPage(publishedUrl)],
    [API_SIDEBAR_FILE, 'module.exports = [];\n'],
  ];
  for (const [name, text] of files) {
    const file = path.join(dir, name);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
      writeFileSync(file, text);
    }
  }
}
