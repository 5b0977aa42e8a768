/**
 * Client module that tells components whether they are rendering for the hydration of the page
 * the browser loaded first. Docusaurus calls `onRouteDidUpdate` once that page has rendered
 * (before any later navigation), so anything mounted afterwards renders from scratch.
 */
let hydrating = typeof window !== 'undefined';

/** True only while the browser renders the server's HTML of the first page (never on the server). */
export function isHydrating(): boolean {
  return hydrating;
}

export function onRouteDidUpdate(): void {
  hydrating = false;
}
