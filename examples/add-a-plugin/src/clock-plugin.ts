import { Plugin, type Executor } from '@weft/core';

/**
 * What may be an IANA time zone in a message: `Asia/Tokyo`, `America/Argentina/Buenos_Aires`,
 * `America/Port-au-Prince`, `Etc/GMT+5`, but also `and/or`. Bounded, as the text is a user's.
 */
const ZONE_LIKE = /\b[A-Za-z]{1,32}(?:\/[A-Za-z0-9_+-]{1,32}){1,2}/g;

/**
 * A capitalised word, which is a zone when it is one of IANA's one-part names: `Japan`, `UTC`,
 * `Singapore`. A word such as `What` or `Paris` is not one, so it names no zone.
 */
const WORD = /(?<![\w/-])[A-Z][A-Za-z]{1,31}(?![\w/-])/g;

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Tells the time. It has no trigger of its own: messages reach it through the assistant
 * plugin's `POST /messages`, and the model plans its step when a message asks for the time.
 */
export class ClockPlugin extends Plugin {
  readonly id = 'clock';
  readonly description = 'Tells the current time.';

  override readonly executors: Executor[] = [
    {
      action: 'now',
      description:
        'Tells the current time, in the IANA time zone the user names (such as Europe/Paris or Japan), else in UTC.',
      async execute(task) {
        // The first name that is a zone, of two or three parts, else of one; else the first
        // that looks like one, to say so.
        const message = task.trigger.message ?? '';
        const named = message.match(ZONE_LIKE) ?? [];
        const words = message.match(WORD) ?? [];
        const zone =
          named.find(isTimeZone) ?? words.find(isTimeZone) ?? named[0] ?? 'UTC';
        let time: string;
        try {
          time = new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            timeStyle: 'short',
          }).format(new Date());
        } catch {
          // The user can fix this, and the text names nothing internal: safe to show them.
          return {
            success: false,
            data: { zone },
            error: `"${zone}" is not a time zone I know; name one such as Europe/Paris.`,
            expose: true,
          };
        }
        return {
          success: true,
          data: { zone, time },
          message: `It is ${time} in ${zone}.`,
        };
      },
    },
  ];
}
