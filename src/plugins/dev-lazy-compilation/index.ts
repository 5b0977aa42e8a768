/**
 * Local Docusaurus plugin, for `npm start` only: Rspack compiles a page's modules when the
 * browser first asks for them, not all of them before the first answer (see "What `npm start`
 * leaves out" in docs/contributing-guide.md).
 *
 * Docusaurus loads each route's component (the page's compiled MDX, its sidebar, its metadata)
 * through a dynamic `import()`. Without this plugin the dev server compiles every one of them,
 * for every page of the site, before it serves anything. With Rspack's lazy compilation of
 * dynamic imports, the first compilation holds the entry and a small stand-in for each
 * `import()`; when the page runs a stand-in, the browser asks the dev server (a POST to the
 * middleware added here) to compile that module, and hot module replacement brings it in.
 * Entries stay eager: the entry is what every page needs first.
 *
 * Rspack applies its lazy-compilation plugin when the middleware is created, so the middleware
 * is made as the compiler is set up (a compiler plugin), before the first compilation, and the
 * dev server's middleware list only forwards to it.
 */
import type { Plugin } from '@docusaurus/types';

type Handler = (request: unknown, response: unknown, next: () => void) => unknown;
/** webpack-dev-server's middleware list, as `setupMiddlewares` receives it. */
type Middlewares = (Handler | { name?: string; middleware: Handler })[];
interface RspackWithLazyCompilation {
  lazyCompilationMiddleware?: (compiler: unknown) => Handler;
}

/** The dev server's name for the middleware, as its middleware list shows it. */
export const LAZY_COMPILATION_MIDDLEWARE = 'weft-lazy-compilation';

export default function devLazyCompilation(): Plugin {
  return {
    name: 'weft-dev-lazy-compilation',
    configureWebpack(_config, isServer, { currentBundler }) {
      // Webpack's lazy compilation needs a server of its own; the site builds with Rspack.
      if (isServer || currentBundler.name !== 'rspack') return {};
      const { lazyCompilationMiddleware } = currentBundler.instance as RspackWithLazyCompilation;
      if (typeof lazyCompilationMiddleware !== 'function') {
        throw new Error(
          'dev-lazy-compilation: this Rspack has no lazyCompilationMiddleware (added in Rspack 1.5); ' +
            'remove ./src/plugins/dev-lazy-compilation from docusaurus.config.ts or upgrade Rspack.',
        );
      }
      let handler: Handler | undefined;
      return {
        // Rspack's option; webpack's types do not know it.
        ...({ lazyCompilation: { imports: true, entries: false } } as object),
        plugins: [
          {
            apply(compiler: unknown) {
              handler = lazyCompilationMiddleware(compiler);
            },
          },
        ],
        devServer: {
          setupMiddlewares(middlewares: Middlewares): Middlewares {
            middlewares.unshift({
              name: LAZY_COMPILATION_MIDDLEWARE,
              middleware: (request: unknown, response: unknown, next: () => void) => {
                if (!handler) {
                  next();
                  return;
                }
                void handler(request, response, next);
              },
            });
            // Docusaurus merges this function with its own by calling both on the same list and
            // joining what they return: the list is already changed in place, so nothing more.
            return [];
          },
        },
      };
    },
  };
}
