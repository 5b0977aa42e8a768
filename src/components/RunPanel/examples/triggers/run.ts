/**
 * The run of the Triggers page's panel: the two plugins the page shows and its tests run
 * (examples/building-plugins/triggers/), with scripted answers and the in-memory memory provider.
 *
 * The issues plugin's trigger is a route, and a page serves no routes: the run dispatches the
 * webhook's event as the route handler does after checking the body (same space, message, data
 * and metadata). The heartbeat's trigger is a start trigger: the runtime starts it, and its own
 * timer dispatches the task the run reports.
 *
 * The reader may edit either plugin's file: the one the chosen preset runs.
 */
import { spaceId } from '@weft/core';

import { HeartbeatPlugin } from '../../../../../examples/building-plugins/triggers/heartbeat-plugin';
import { IssuesPlugin } from '../../../../../examples/building-plugins/triggers/issues-plugin';
import { PLAN_FIELD, REVIEW_FIELD, asJson } from '../../run/answers';
import { withDeadline } from '../../run/deadline';
import { PLUGIN_EDIT_LABEL, type EditablePlugin, type RunDefinition } from '../../run/definition';
import { observedRun } from '../../run/observed-run';

/** The heartbeat's interval in the panel: short, so the reader does not wait for the tick. */
export const HEARTBEAT_INTERVAL_MS = 100;

/** How long the run waits for the heartbeat's first task before giving up. */
const HEARTBEAT_DEADLINE_MS = 5_000;

const REPOSITORY = 'weft';

const PLANS: Record<string, unknown> = {
  issue: { steps: [{ pluginId: 'issues', action: 'label' }] },
  // `close` is not an action of the issues plugin: the step becomes an error item.
  'unknown-action': { steps: [{ pluginId: 'issues', action: 'close' }] },
  heartbeat: { steps: [{ pluginId: 'heartbeat', action: 'tick' }] },
};

const REVIEWS: Record<string, unknown> = {
  'unknown-action': {
    type: 'replace',
    steps: [{ pluginId: 'issues', action: 'label' }],
    reason: 'The issues plugin cannot close issues; label the issue instead.',
  },
};

const EDITABLE_ISSUES: EditablePlugin = {
  file: 'examples/building-plugins/triggers/issues-plugin.ts',
  exportName: 'IssuesPlugin',
  editLabel: PLUGIN_EDIT_LABEL,
  load: () => import('./editor-issues'),
};

const EDITABLE_HEARTBEAT: EditablePlugin = {
  file: 'examples/building-plugins/triggers/heartbeat-plugin.ts',
  exportName: 'HeartbeatPlugin',
  editLabel: PLUGIN_EDIT_LABEL,
  constructorArgs: [HEARTBEAT_INTERVAL_MS],
  load: () => import('./editor-heartbeat'),
};

export const definition: RunDefinition = {
  id: 'triggers',
  messageLabel: "The issue's title (the route handler dispatches it as the message)",
  presets: [
    { id: 'issue', label: 'Route trigger: the webhook posts issue #7' },
    {
      id: 'unknown-action',
      label: 'A step fails: the plan names issues.close, an action the plugin lacks',
    },
    { id: 'heartbeat', label: "Start trigger: the heartbeat's timer dispatches (no message)" },
  ],
  failingPreset: 'unknown-action',
  answerFields: [PLAN_FIELD, REVIEW_FIELD],
  async initialInput(preset) {
    return {
      message: 'Crash on start',
      answers: {
        plan: asJson(PLANS[preset] ?? PLANS.issue),
        review: asJson(REVIEWS[preset] ?? { type: 'stop', reason: 'Nothing more to do.' }),
      },
      preset,
    };
  },
  editable: (preset) => (preset === 'heartbeat' ? EDITABLE_HEARTBEAT : EDITABLE_ISSUES),
  run(input, onEvent, _session, plugin) {
    const heartbeat = input.preset === 'heartbeat';
    // `plugin` is the reader's edit of the file this preset runs (see `editable`).
    const Heartbeat = (plugin as typeof HeartbeatPlugin | undefined) ?? HeartbeatPlugin;
    const Issues = (plugin as typeof IssuesPlugin | undefined) ?? IssuesPlugin;
    return observedRun({
      plugins: [heartbeat ? new Heartbeat(HEARTBEAT_INTERVAL_MS) : new Issues()],
      answer(_provider, _messages, request) {
        return (request.purpose === 'review' ? input.answers.review : input.answers.plan) ?? '';
      },
      dispatch(runtime, firstTaskEnded) {
        if (heartbeat) return withDeadline(firstTaskEnded, HEARTBEAT_DEADLINE_MS, 'a heartbeat');
        // What the webhook would post, dispatched as the route handler dispatches it.
        const event = { repository: REPOSITORY, issue: { number: 7, title: input.message } };
        return runtime.dispatch({
          pluginId: 'issues',
          triggerId: 'issue-opened',
          space: {
            id: spaceId('repo', event.repository),
            description: `Issues of ${event.repository}`,
          },
          message: event.issue.title,
          data: event,
          metadata: { deliveryId: 'run-panel' },
        });
      },
      onEvent,
    });
  },
};
