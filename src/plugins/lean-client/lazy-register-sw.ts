/**
 * Stands in for the PWA plugin's client module, which registers the service worker. The
 * registration code (about 0.8 KB gzipped, with the storage helpers it imports) is needed once
 * the page has loaded, not before it can render, so it moves to its own chunk, fetched after the
 * `load` event. The query string keeps the real module from being replaced by this one again.
 */
function registerServiceWorker(): void {
  import('@docusaurus/plugin-pwa/lib/registerSw.js?after-load').catch((error: unknown) =>
    console.error('Service worker registration failed to load:', error),
  );
}

if (typeof window !== 'undefined') {
  if (document.readyState === 'complete') {
    registerServiceWorker();
  } else {
    window.addEventListener('load', registerServiceWorker, { once: true });
  }
}

export {};
