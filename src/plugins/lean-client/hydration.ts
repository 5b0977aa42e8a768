/**
 * Client module that tells components whether they are rendering for the hydration of the page
 * the browser loaded first. Docusaurus calls `onRouteDidUpdate` once that page has rendered
 * (before any later navigation), so anything mounted afterwards renders from scratch.
 *
 * Code on the first page keeps the server's highlighting, so Prism is not loaded for it
 * (src/theme/CodeBlock/Content). When the reader navigates, code on the next page may need
 * highlighting in the browser: the highlighter starts downloading with that page's own chunks.
 */
let hydrating = typeof window !== 'undefined';
let highlighterRequested = false;

/** True only while the browser renders the server's HTML of the first page (never on the server). */
export function isHydrating(): boolean {
  return hydrating;
}

export function onRouteDidUpdate(): void {
  hydrating = false;
}

export function onRouteUpdate({
  previousLocation,
}: {
  previousLocation: { pathname: string } | null;
}): void {
  if (previousLocation !== null && !highlighterRequested) {
    highlighterRequested = true;
    import('@site/src/theme/CodeBlock/Content/HighlightedLines').catch((error: unknown) => {
      // A block that needs it tries again, and shows its plain code meanwhile.
      highlighterRequested = false;
      console.error('Loading the code highlighter failed', error);
    });
  }
}
