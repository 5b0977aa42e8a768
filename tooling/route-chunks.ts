/**
 * The scripts a page's route loads on a first visit, after the entry bundle: Docusaurus's client
 * loads every chunk of the routes that match the page (its layouts and the page itself) before
 * it hydrates. None of them is named in the page's HTML, so tooling/first-load.ts does not see
 * them; they are read here from what the build leaves in .docusaurus/: the route tree
 * (routes.js), each route's chunk names (routesChunkNames.json) and the chunk files of each name
 * (client-manifest.json). Split in two: the components the routes render (`__comp`: the
 * theme's layouts and pages, shared by every page of the kind) and the data they render (the
 * page's Markdown, the sidebar, plugin data), which grows as the docs are written.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sizeOf, type FileSize } from './first-load';

/** What Docusaurus generates in .docusaurus/ that this module reads. */
const ROUTES_FILE = 'routes.js';
const CHUNK_NAMES_FILE = 'routesChunkNames.json';
const MANIFEST_FILE = 'client-manifest.json';

interface ClientManifest {
  origins: Record<string, string[]>;
  assets: Record<string, { js?: { file: string }[] }>;
}

/** A route of routes.js: a layout (with child routes) or a page (exact). */
interface RouteEntry {
  path: string;
  key: string;
  layout: boolean;
}

export interface RouteChunks {
  /** Chunks of the components the page's routes render. */
  components: FileSize[];
  /** Chunks of the data only (the page's content, its sidebar, plugin data). */
  data: FileSize[];
  componentsGzip: number;
  dataGzip: number;
}

const ROUTE_ENTRY =
  /path: '([^']*)',\s*component: ComponentCreator\('([^']*)', '([^']*)'\),\s*(exact: true|routes: \[)/g;

function readGenerated(generatedDir: string, file: string): string {
  const target = path.join(generatedDir, file);
  if (!existsSync(target)) {
    throw new Error(`route-chunks: ${target} is missing; run \`npm run build\` first.`);
  }
  return readFileSync(target, 'utf8');
}

function routeEntries(routesSource: string): RouteEntry[] {
  const entries = [...routesSource.matchAll(ROUTE_ENTRY)].map(
    ([, routePath = '', creatorPath = '', hash = '', kind = '']) => ({
      path: routePath,
      key: `${creatorPath}-${hash}`,
      layout: kind.startsWith('routes'),
    }),
  );
  if (entries.length === 0) {
    throw new Error(`route-chunks: no route found in ${ROUTES_FILE}; has its format changed?`);
  }
  return entries;
}

/** The chunk name of a route's component; every other key names data (content, __props…). */
const COMPONENT_KEY = '__comp';

/** [key, chunk name] pairs of a route's chunk-name tree (e.g. __comp, content, __context.plugin). */
function chunkNames(value: unknown, key = ''): [string, string][] {
  if (typeof value === 'string') {
    return [[key, value]];
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([childKey, child]) => chunkNames(child, childKey));
  }
  return [];
}

export function routeChunks(siteDir: string, buildDir: string, route: string): RouteChunks {
  const generatedDir = path.join(siteDir, '.docusaurus');
  const chunkNamesByRoute = JSON.parse(readGenerated(generatedDir, CHUNK_NAMES_FILE)) as Record<
    string,
    unknown
  >;
  const manifest = JSON.parse(readGenerated(generatedDir, MANIFEST_FILE)) as ClientManifest;
  const matched = routeEntries(readGenerated(generatedDir, ROUTES_FILE)).filter((entry) =>
    entry.layout ? route.startsWith(entry.path) : entry.path === route,
  );
  if (!matched.some((entry) => !entry.layout)) {
    throw new Error(`route-chunks: no page route matches ${route}.`);
  }
  const componentChunks = new Set<string>();
  const dataChunks = new Set<string>();
  for (const entry of matched) {
    for (const [key, name] of chunkNames(chunkNamesByRoute[entry.key])) {
      for (const chunk of manifest.origins[name] ?? []) {
        (key === COMPONENT_KEY ? componentChunks : dataChunks).add(chunk);
      }
    }
  }
  const files = (chunks: Iterable<string>) =>
    [...chunks]
      .flatMap((chunk) => manifest.assets[chunk]?.js ?? [])
      .map(({ file }) => sizeOf(buildDir, `/${file}`));
  const components = files(componentChunks);
  const data = files([...dataChunks].filter((chunk) => !componentChunks.has(chunk)));
  const sum = (list: FileSize[]) => list.reduce((total, file) => total + file.gzip, 0);
  return { components, data, componentsGzip: sum(components), dataGzip: sum(data) };
}
