/**
 * The Run panel of Getting started: a button that runs the getting-started agent in the page.
 * Only this shell is part of the page; the panel and the Weft core it runs (./Panel.tsx) load
 * when the reader presses Run or scrolls near it, so the page's first load carries none of it
 * (tests/build/javascript-budget.test.ts, tests/build/run-panel.test.ts).
 *
 * It is styled with Infima classes the site already uses and inline styles only: a CSS module would join the site's
 * one stylesheet, which every page loads first.
 *
 * The button and the live region are in the server-rendered HTML: a press before hydration is
 * replayed by React, and the region exists before anything is announced in it.
 */
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { PanelProps } from './Panel';

/** How far below the viewport the panel starts loading, so that it is ready when reached. */
const PRELOAD_MARGIN = '400px';

let panelModule: Promise<ComponentType<PanelProps>> | undefined;

function loadPanel(): Promise<ComponentType<PanelProps>> {
  panelModule ??= import('./Panel').then((loaded) => loaded.default);
  return panelModule;
}

export default function RunPanel(): ReactNode {
  const [Panel, setPanel] = useState<ComponentType<PanelProps> | undefined>();
  const [runs, setRuns] = useState(0);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = root.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          void loadPanel();
        }
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  function run(): void {
    if (busy) return;
    setRuns((count) => count + 1);
    if (!Panel) {
      setAnnouncement('Loading the agent…');
      loadPanel().then(
        (loaded) => setPanel(() => loaded),
        () => setAnnouncement('The agent could not be loaded. Reload the page to try again.'),
      );
    }
  }

  return (
    <div
      ref={root}
      className="card margin-bottom--md"
      style={{ padding: '0.75rem', border: '1px solid var(--ifm-color-emphasis-300)' }}
      data-run-panel="getting-started"
    >
      <p style={{ margin: 0 }}>
        <button
          type="button"
          className="button button--primary"
          style={{ marginRight: '0.75rem' }}
          onClick={run}
          aria-disabled={busy}
        >
          Run the getting-started agent
        </button>
        In your browser: the scripted model, in-memory memory, no network.
      </p>
      <p role="status" aria-live="polite" style={{ margin: 0, fontWeight: 600 }}>
        {announcement}
      </p>
      {Panel ? <Panel runs={runs} onAnnounce={setAnnouncement} onBusy={setBusy} /> : null}
    </div>
  );
}
