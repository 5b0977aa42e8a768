/**
 * The Run panels, one entry per example: what the shell (./index.tsx) shows and loads, and what
 * the tests read to find every panel (tests/build/run-panel.test.ts, the table-driven browser
 * test tests/e2e/run-panel-shared.spec.ts, tests/unit/run-panel-registry.test.ts).
 *
 * An example's code is the folder ./examples/<id>/: `run.ts` (its `RunDefinition`), `load.ts`
 * (what a press loads, the panel and the run, as one dynamic import) and `editor*.ts` (what the
 * editor button loads). The shell is part of its page, so each entry holds short strings only and
 * a `load` that imports nothing until called.
 */
import type { ComponentType } from 'react';
import type { PanelProps } from './Panel';
import type { RunDefinition } from './run/definition';

/** What an example's press loads: the panel, and the example's run. */
export interface LoadedExample {
  Panel: ComponentType<PanelProps>;
  definition: RunDefinition;
}

/** A page that places the panel, as `<RunPanel example="<id>" preset="<preset>" />`. */
export interface RunPanelPage {
  /** The page's route, such as `/docs/getting-started/`. */
  path: string;
  /** The preset the panel starts with there, when not the example's first. */
  preset?: string;
}

export interface RunPanelEntry {
  /** The Run button's text; it starts with "Run". */
  button: string;
  /** Every page that places this example's panel. */
  pages: readonly RunPanelPage[];
  /** The source file, from the repository's root, of the plugin the first preset runs. */
  plugin: string;
  /** The ids of the example's presets, as its `RunDefinition` lists them (the first is the default). */
  presets: readonly string[];
  /** Loads ./examples/<id>/load.ts: one dynamic import, so one group of chunks, per example. */
  load(): Promise<LoadedExample>;
}

export const RUN_PANELS = {
  'getting-started': {
    button: 'Run the getting-started agent',
    pages: [{ path: '/docs/getting-started/' }],
    plugin: 'examples/getting-started/assistant-plugin.ts',
    presets: ['example', 'failing-step'],
    load: () => import('./examples/getting-started/load'),
  },
  executors: {
    button: 'Run the calendar agent',
    pages: [
      { path: '/docs/building-plugins/executors/' },
      { path: '/docs/concepts/how-a-task-runs/', preset: 'full-day' },
    ],
    plugin: 'examples/building-plugins/executors/calendar-plugin.ts',
    presets: ['example', 'full-day'],
    load: () => import('./examples/executors/load'),
  },
  triggers: {
    button: 'Run the triggers example',
    pages: [{ path: '/docs/building-plugins/triggers/' }],
    plugin: 'examples/building-plugins/triggers/issues-plugin.ts',
    presets: ['issue', 'unknown-action', 'heartbeat'],
    load: () => import('./examples/triggers/load'),
  },
  chat: {
    button: 'Run the chat assistant',
    pages: [{ path: '/docs/tutorials/chat-assistant/' }],
    plugin: 'examples/tutorial-chat/conversation-plugin.ts',
    presets: ['example', 'writer-down'],
    load: () => import('./examples/chat/load'),
  },
  'http-chat': {
    button: 'Run the HTTP chat agent',
    pages: [{ path: '/docs/building-plugins/http-chat/' }],
    plugin: 'packages/plugin-chat/src/chat-plugin.ts',
    presets: ['example', 'model-down'],
    load: () => import('./examples/http-chat/load'),
  },
} satisfies Record<string, RunPanelEntry>;

export type RunExample = keyof typeof RUN_PANELS;
