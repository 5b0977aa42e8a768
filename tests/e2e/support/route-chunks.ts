/**
 * Finding and tampering with the JavaScript chunk that holds one page's content.
 *
 * Chunk file names are content hashes that change with every build, so a page's chunk is found by
 * what it contains: the compiled MDX module of a doc carries its metadata, including
 * `"source":"@site/docs/<file>"`, and no other chunk does (the route registry in main.js names
 * the file, but never in that JSON form).
 */
import type { APIResponse, Page, Request, Route } from '@playwright/test';

/** Every JavaScript chunk the site loads. */
export const chunkUrlPattern = /\/assets\/js\/[^/]+\.js(\?.*)?$/;

/** `@site/docs/bounty-program.md` is marked by `"source":"@site/docs/bounty-program.md"`. */
export function contentChunkMarker(siteSource: string): string {
  return `"source":${JSON.stringify(siteSource)}`;
}

export function isContentChunkOf(body: string, siteSource: string): boolean {
  return body.includes(contentChunkMarker(siteSource));
}

export interface InterceptedChunk {
  /** The chunk as the server sent it. */
  response: APIResponse;
  body: string;
}

export type ChunkHandler = (route: Route, chunk: InterceptedChunk) => Promise<void>;

/**
 * Routes every chunk request through `handler` when the chunk holds `siteSource`'s content, and
 * passes the others through untouched. Playwright disables the HTTP cache while a page has routes,
 * so prefetches and the later script loads all come through here.
 */
export async function interceptContentChunk(
  page: Page,
  siteSource: string,
  handler: ChunkHandler,
): Promise<void> {
  await page.route(chunkUrlPattern, async (route) => {
    let response: APIResponse;
    let body: string;
    try {
      response = await route.fetch();
      body = await response.text();
    } catch (error) {
      // A reload or a navigation while this chunk was in flight (a prefetch, say) ends its
      // request: Playwright disposes of the answer ("Response has been disposed") and nobody
      // waits for it any more. Anything else is a real failure.
      if (page.isClosed() || /disposed|closed|destroyed/i.test(String(error))) {
        await route.abort().catch(() => undefined);
        return;
      }
      throw error;
    }
    if (isContentChunkOf(body, siteSource)) {
      await handler(route, { response, body });
      return;
    }
    await route.fulfill({ response, body });
  });
}

/** True for a request that loads and runs a chunk (as opposed to a `<link rel="prefetch">`). */
export function isScriptLoad(request: Request): boolean {
  return request.resourceType() === 'script';
}

/**
 * Name of the chunk-loading global the chunk pushes itself onto. Bundlers write it as a property
 * of `self`, `window` or `globalThis`, by dot or by quoted key (`self["webpackChunk…"]`), and
 * name it after the package unless `output.chunkLoadingGlobal` says otherwise: any of those.
 */
function chunkGlobal(body: string): string {
  const match =
    /\b(?:self|window|globalThis)(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"']+)["']\s*\])\s*=/.exec(
      body,
    );
  const name = match?.[1] ?? match?.[2];
  if (!name) {
    throw new Error(
      'Not a chunk: no chunk-loading global assigned on self, window or globalThis found',
    );
  }
  return name;
}

/** Global flag read by the crashing chunk: set it to false to let the page render again. */
export const crashFlag = '__weftE2eCrash';

/**
 * The same chunk, except that the page content component throws while rendering, as long as
 * `window[crashFlag]` is not false. The modules are still registered under their real ids, so the
 * route loads normally and the crash happens in React's render, like a bug in a page would.
 *
 * The wrapper intercepts the chunk's `push` onto the webpack global and wraps each module factory:
 * after the original factory ran, an MDX content module (one exporting `frontMatter` and
 * `default`) gets its exports replaced by a copy whose `default` throws.
 */
export function crashingContentChunk(body: string): string {
  const globalName = JSON.stringify(chunkGlobal(body));
  const flag = JSON.stringify(crashFlag);
  const prelude = `
(function () {
  var name = ${globalName};
  var queue = (self[name] = self[name] || []);
  var push = queue.push;
  queue.push = function (data) {
    queue.push = push;
    var modules = data[1];
    Object.keys(modules).forEach(function (id) {
      var factory = modules[id];
      modules[id] = function (module, exports, require) {
        factory.call(this, module, exports, require);
        var original = module.exports;
        if (!original || !('frontMatter' in original) || !('default' in original)) return;
        var copy = {};
        Object.keys(original).forEach(function (key) {
          if (key === 'default') return;
          Object.defineProperty(copy, key, { enumerable: true, get: function () { return original[key]; } });
        });
        Object.defineProperty(copy, '__esModule', { value: true });
        Object.defineProperty(copy, 'default', {
          enumerable: true,
          value: function InjectedCrash(props) {
            if (self[${flag}] !== false) throw new Error('Injected crash while rendering the page');
            return original.default(props);
          },
        });
        module.exports = copy;
      };
    });
    return push.call(queue, data);
  };
})();
`;
  return `${prelude}\n${body}`;
}

/**
 * The client-side transition that the prefetch and progress tests watch: from a docs page to
 * another one through its sidebar link, with the target's content chunk intercepted.
 */
export const transition = {
  origin: '/docs/getting-started/',
  target: {
    path: '/docs/bounty-program/',
    source: '@site/docs/bounty-program.md',
    sidebarLabel: 'Bounty program',
    h1: 'Bounty program',
  },
} as const;
