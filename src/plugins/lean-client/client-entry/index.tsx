/**
 * The browser's entry in production builds, in place of Docusaurus's clientEntry.js. It does what
 * that entry does (hydrate the server's HTML inside the router and the head provider, once the
 * current route's chunks are loaded, as a transition; expose `window.docusaurus`), but in steps,
 * one task each, so that the browser can paint and answer input between them.
 *
 * Docusaurus's entry evaluates the whole main bundle and then starts loading the route's chunks,
 * all in the task that runs main.js: 130-220 ms with a 4x CPU slowdown on a docs page, counted
 * whole as blocking time. Here the first task only schedules the next; React DOM, the route
 * table, the app and the route's chunks then each take their own task.
 *
 * The steps change the order in which the bundler meets some modules, and with it the order of
 * their rules in the extracted stylesheet (the code-line rules of theme-classic's code block
 * moved to the end when this came in). Class names are scoped per module, so the order matters
 * only where two modules style the same element; the browser tests of the site's look check it.
 */
import { startTransition } from 'react';

/** Resolves in a new task, after the browser had a chance to render and handle events. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}

async function start(): Promise<void> {
  // webpackMode "eager": the steps stay in the main bundle; only their evaluation waits. Each
  // step module re-exports what is used by name, so unused exports still leave the bundle.
  await nextTask();
  const { hydrateRoot } = await import(/* webpackMode: "eager" */ './step-react-dom');
  await nextTask();
  const { BrowserRouter } = await import(/* webpackMode: "eager" */ './step-routes');
  await nextTask();
  const { HelmetProvider, App, preload, docusaurus } = await import(
    /* webpackMode: "eager" */ './step-app'
  );
  window.docusaurus = docusaurus;
  await nextTask();
  await preload(window.location.pathname);
  const container = document.getElementById('__docusaurus');
  if (!container) {
    throw new Error('the page has no #__docusaurus element to hydrate');
  }
  startTransition(() => {
    window.docusaurusRoot = hydrateRoot(
      container,
      <HelmetProvider>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </HelmetProvider>,
      {
        onRecoverableError(error, errorInfo) {
          console.error('Docusaurus React Root onRecoverableError:', error, errorInfo);
        },
      },
    );
  });
}

start().catch((error: unknown) => {
  // The server's HTML stays readable; links work as plain links.
  console.error('Weft: the page could not start in the browser', error);
});
