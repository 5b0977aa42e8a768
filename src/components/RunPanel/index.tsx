/**
 * A Run panel: a button that runs an example's agent in the page, such as
 * `<RunPanel example="executors" />`. Only this shell and the registry of examples (./registry.ts)
 * are part of the page; the panel, the example's run and the Weft core they use load, as one
 * dynamic import per example (./examples/<id>/load.ts), when the reader presses Run or scrolls
 * near it, so no page's first load carries any of it (tests/build/javascript-budget.test.ts,
 * tests/build/run-panel.test.ts).
 *
 * It is styled with Infima classes the site already uses and inline styles only: a CSS module would join the site's
 * one stylesheet, which every page loads first.
 *
 * The button and the live region are in the server-rendered HTML: a press before hydration is
 * replayed by React, and the region exists before anything is announced in it.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { RUN_PANELS, type LoadedExample, type RunExample } from './registry';

export type { RunExample } from './registry';

/** How far below the viewport the panel starts loading, so that it is ready when reached. */
const PRELOAD_MARGIN = '400px';

const loading = new Map<RunExample, Promise<LoadedExample>>();

function loadExample(example: RunExample): Promise<LoadedExample> {
  let loaded = loading.get(example);
  if (!loaded) {
    loaded = RUN_PANELS[example].load();
    // A failed load (offline before the precache) may be retried by the next press.
    loaded.catch(() => loading.delete(example));
    loading.set(example, loaded);
  }
  return loaded;
}

export interface RunPanelProps {
  /** Which example the panel runs; default Getting started's. */
  example?: RunExample;
  /** The preset it starts with, such as the one whose step fails; default the example's first. */
  preset?: string;
}

export default function RunPanel({
  example = 'getting-started',
  preset,
}: RunPanelProps): ReactNode {
  const [loaded, setLoaded] = useState<LoadedExample | undefined>();
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
          void loadExample(example).catch(() => undefined);
        }
      },
      { rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [example]);

  function run(): void {
    if (busy) return;
    setRuns((count) => count + 1);
    if (!loaded) {
      setAnnouncement('Loading the agent…');
      loadExample(example).then(
        // Rendered at once rather than when React's scheduler next runs: the panel's effect
        // starts the run the press asked for, and the scheduler's turn came 25-40 ms later at a
        // 4x CPU slowdown.
        (module) => flushSync(() => setLoaded(module)),
        () => setAnnouncement('The agent could not be loaded. Reload the page to try again.'),
      );
    }
  }

  return (
    <div
      ref={root}
      className="card margin-bottom--md"
      style={{ padding: '0.75rem', border: '1px solid var(--ifm-color-emphasis-300)' }}
      data-run-panel={example}
    >
      <p style={{ margin: 0 }}>
        <button
          type="button"
          className="button button--primary"
          style={{ marginRight: '0.75rem' }}
          onClick={run}
          aria-disabled={busy}
        >
          {RUN_PANELS[example].button}
        </button>
        In your browser: the scripted model, in-memory memory, no network.
      </p>
      <p role="status" aria-live="polite" style={{ margin: 0, fontWeight: 600 }}>
        {announcement}
      </p>
      {loaded ? (
        <loaded.Panel
          definition={loaded.definition}
          initialPreset={preset}
          runs={runs}
          onAnnounce={setAnnouncement}
          onBusy={setBusy}
        />
      ) : null}
    </div>
  );
}
