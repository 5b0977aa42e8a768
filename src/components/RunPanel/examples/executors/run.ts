/**
 * The run of the Executors page's panel (and of How a task runs, which has no agent of its own):
 * the calendar plugin the page shows and its tests run
 * (examples/building-plugins/executors/calendar-plugin.ts), with scripted answers like its test's
 * and the in-memory memory provider. The runtime keeps its default review policy, so the model
 * reviews the plan after `find-slot` and after any failed step. The failing preset fills the day,
 * so `find-slot` returns an error and the review decides what happens to `book`. The class the
 * reader edited in the panel's editor replaces the file's.
 */
import {
  SlotRequest,
  CalendarPlugin,
  type Booking,
} from '../../../../../examples/building-plugins/executors/calendar-plugin';
import { PLAN_FIELD, REVIEW_FIELD, asJson } from '../../run/answers';
import type { AnswerField, RunDefinition } from '../../run/definition';
import { observedRun } from '../../run/observed-run';

const DAY = '2025-03-04';

/** The meetings already in the calendar, per preset: the test's stand-up, or a full day. */
const BOOKINGS: Record<string, Booking[]> = {
  example: [{ date: DAY, start: '09:00', minutes: 90, title: 'Stand-up' }],
  'full-day': [{ date: DAY, start: '09:00', minutes: 480, title: 'Offsite' }],
};

const SLOT_FIELD: AnswerField = {
  field: 'slot',
  label: "The model's answer to find-slot's getObject call (JSON, a SlotRequest)",
  name: 'slot answer',
  schema: SlotRequest,
};

const fields: AnswerField[] = [PLAN_FIELD, SLOT_FIELD, REVIEW_FIELD];

export const definition: RunDefinition = {
  id: 'executors',
  messageLabel: 'Incoming message',
  presets: [
    { id: 'example', label: 'A stand-up until 10:30: the slot is free at 10:30' },
    { id: 'full-day', label: 'A step fails: an offsite fills the day, so find-slot finds nothing' },
  ],
  failingPreset: 'full-day',
  answerFields: fields,
  async initialInput(preset) {
    const review =
      preset === 'full-day'
        ? { type: 'stop', reason: 'The day is full: ask the user for another day.' }
        : { type: 'continue' };
    return {
      message: `Book 60 minutes with Grace on ${DAY} to plan the release`,
      answers: {
        plan: asJson({
          steps: [
            { pluginId: 'calendar', action: 'find-slot' },
            { pluginId: 'calendar', action: 'book' },
          ],
        }),
        slot: asJson({ date: DAY, minutes: 60, title: 'Release planning' }),
        review: asJson(review),
      },
      preset,
    };
  },
  editable: {
    file: 'examples/building-plugins/executors/calendar-plugin.ts',
    exportName: 'CalendarPlugin',
    load: () => import('./editor'),
  },
  run(input, onEvent, _session, plugin) {
    // The loader checked that an edited class extends Plugin, not that it kept the file's
    // constructor: one that no longer takes the bookings fails the run with its own error.
    const Calendar = (plugin as typeof CalendarPlugin | undefined) ?? CalendarPlugin;
    const bookings = (BOOKINGS[input.preset] ?? BOOKINGS.example ?? []).map((booking) => ({
      ...booking,
    }));
    return observedRun({
      plugins: [new Calendar(bookings)],
      answer(_provider, _messages, request) {
        if (request.purpose === 'plan') return input.answers.plan ?? '';
        if (request.purpose === 'review') return input.answers.review ?? '';
        return input.answers.slot ?? '';
      },
      // The calendar test's space and trigger id: the page's agent has no trigger of its own.
      dispatch: (runtime) =>
        runtime.dispatch({
          pluginId: 'calendar',
          triggerId: 'test',
          space: 'calendar-ada',
          message: input.message,
        }),
      onEvent,
    });
  },
};
