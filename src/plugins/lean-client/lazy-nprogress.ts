/**
 * Stands in for nprogress, the library behind the theme's route-change progress bar, with the
 * three calls the theme makes (configure, start, done). The bar never shows before the first
 * client-side navigation, so nprogress (about 1.4 KB gzipped) is not part of the entry bundle:
 * it is fetched after the page's `load` event, and is ready long before a reader's first click
 * could need it 200 ms into a navigation. Calls made before it arrives are replayed in order.
 * The query string keeps the real module from being replaced by this one again.
 */
type Settings = Record<string, unknown>;

interface ProgressBar {
  configure(settings: Settings): ProgressBar;
  start(): ProgressBar;
  done(force?: boolean): ProgressBar;
}

let settings: Settings = {};
let started = false;
let library: Promise<ProgressBar> | undefined;
/** Keeps calls in the order they were made while nprogress loads. */
let queue: Promise<void> = Promise.resolve();

function load(): Promise<ProgressBar> {
  library ??= import('nprogress/nprogress.js?after-load').then((module) =>
    (module.default as ProgressBar).configure(settings),
  );
  return library;
}

function withProgressBar(action: (bar: ProgressBar) => void): void {
  queue = queue
    .then(load)
    .then(action)
    .catch((error: unknown) => console.error('The progress bar failed to load:', error));
}

const lazyProgressBar: ProgressBar = {
  configure(options) {
    settings = { ...settings, ...options };
    if (library) {
      withProgressBar((bar) => bar.configure(options));
    }
    return lazyProgressBar;
  },
  start() {
    started = true;
    withProgressBar((bar) => bar.start());
    return lazyProgressBar;
  },
  done(force) {
    // The theme calls done() after every route update, the first page's included: with no
    // start() before it there is no bar to finish.
    if (started) {
      withProgressBar((bar) => bar.done(force));
    }
    return lazyProgressBar;
  },
};

if (typeof window !== 'undefined') {
  const preload = () => void load().catch(() => undefined);
  if (document.readyState === 'complete') {
    preload();
  } else {
    window.addEventListener('load', preload, { once: true });
  }
}

export default lazyProgressBar;
