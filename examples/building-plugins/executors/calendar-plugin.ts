import { Plugin, type Context, type Executor } from '@weft/core';
import { z } from 'zod';

/** A meeting in the calendar. */
export interface Booking {
  date: string;
  start: string;
  minutes: number;
  title: string;
}

/** The request the model extracts from the user's message. */
export const SlotRequest = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('The day, as YYYY-MM-DD.'),
  minutes: z
    .number()
    .int()
    .positive()
    .max(480)
    .describe('How long the meeting lasts.'),
  title: z.string().min(1).describe('A short title for the meeting.'),
});
type SlotRequest = z.infer<typeof SlotRequest>;

const DAY_START = 9 * 60;
const DAY_END = 17 * 60;

/** Finds and books meeting slots in a working day from 09:00 to 17:00. */
export class CalendarPlugin extends Plugin {
  readonly id = 'calendar';
  readonly description = 'Finds free time and books meetings.';
  override readonly requiredCapabilities = ['text-generation'];

  constructor(readonly bookings: Booking[] = []) {
    super();
  }

  override readonly executors: Executor[] = [
    {
      action: 'find-slot',
      description:
        'Finds the first free slot on the day the user asked for. ' +
        'Run it before "book".',
      execute: async (task, context) => {
        const wanted = await context.getObject({
          schema: SlotRequest,
          schemaName: 'SlotRequest',
          prompt:
            'Which day, for how long and about what does the user want ' +
            `to meet? Message: ${task.trigger.message}`,
        });
        const start = this.firstFreeStart(wanted);
        if (start === undefined) {
          context.logger.info({ date: wanted.date }, 'day is full');
          return {
            success: false,
            data: wanted,
            error: `no free ${wanted.minutes}-minute slot on ${wanted.date}`,
          };
        }
        const slot = { ...wanted, start: formatTime(start) };
        return {
          success: true,
          data: slot,
          message: `Free at ${slot.start} on ${slot.date}`,
        };
      },
    },
    {
      action: 'book',
      description: 'Books the slot that "find-slot" found.',
      execute: async (_task, context) => {
        const found = lastResult(context.chain, 'find-slot');
        if (!found) {
          return {
            success: false,
            error: 'no slot to book: run "find-slot" first',
          };
        }
        const booking = found.data as Booking;
        this.bookings.push(booking);
        return {
          success: true,
          data: booking,
          message: `Booked "${booking.title}" on ${booking.date} at ${booking.start}`,
        };
      },
    },
  ];

  /**
   * The first start, on the hour or the half hour, at which the meeting overlaps
   * no booking and ends by 17:00; `undefined` when there is none.
   */
  private firstFreeStart({ date, minutes }: SlotRequest): number | undefined {
    const busy = this.bookings
      .filter((booking) => booking.date === date)
      .map((booking) => [
        parseTime(booking.start),
        parseTime(booking.start) + booking.minutes,
      ]);
    for (let start = DAY_START; start + minutes <= DAY_END; start += 30) {
      if (busy.every(([from, to]) => start + minutes <= from! || start >= to!))
        return start;
    }
    return undefined;
  }
}

/**
 * The most recent successful result of an action, read from the task's context
 * chain.
 */
function lastResult(
  chain: readonly Context[],
  action: string,
): Context | undefined {
  return chain.findLast(
    (item) => item.type === 'result' && item.action === action,
  );
}

function parseTime(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  return hours! * 60 + minutes!;
}

function formatTime(minutes: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
