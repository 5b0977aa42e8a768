import {
  Plugin,
  spaceId,
  type Executor,
  type Runtime,
  type Trigger,
} from '@weft/core';
import { z } from 'zod';

/** Options of {@link NotesPlugin}, checked when the plugin is created. */
export interface NotesPluginOptions {
  /** How many notes the `list` action shows. Default 10. */
  maxNotesShown?: number;
}

const NoteSchema = z.object({
  text: z
    .string()
    .min(1)
    .describe('The note, in the words of the user, without "remember that".'),
});

/**
 * Keeps short notes in the agent's memory, in the space of the task that saved
 * them.
 */
export class NotesPlugin extends Plugin {
  readonly id = 'notes';
  readonly description =
    'Saves short notes from messages and lists them on request.';
  override readonly requiredCapabilities = ['text-generation'];

  override readonly templates = {
    extract:
      'Find the note the user wants kept in this message:\n{{ message }}',
    list:
      '{% for note in notes %}- {{ note.text }}\n' +
      '{% else %}No notes yet.{% endfor %}',
  };

  override readonly executors: Executor[] = [
    {
      action: 'save',
      description:
        'Saves a note the user asked to remember. ' +
        'Use when the message says "remember", "note" or similar.',
      execute: async (task, context) => {
        const note = await context.getObject({
          schema: NoteSchema,
          schemaName: 'Note',
          prompt: await context.render('extract', {
            message: task.trigger.message ?? '',
          }),
        });
        const stored = await context.memory.store({
          space: task.space.id,
          kind: 'note',
          content: note,
          taskId: task.id,
          metadata: {},
        });
        return {
          success: true,
          data: { noteId: stored.id, text: note.text },
          message: `Noted: ${note.text}`,
        };
      },
    },
    {
      action: 'list',
      description:
        'Lists the notes saved so far, newest first. Use when the user asks what they saved.',
      execute: async (task, context) => {
        const memories = await context.memory.query({
          space: task.space.id,
          kind: 'note',
          limit: this.maxNotesShown,
        });
        const notes = memories.map(
          (memory) => memory.content as z.infer<typeof NoteSchema>,
        );
        return {
          success: true,
          data: { notes },
          message: await context.render('list', { notes }),
        };
      },
    },
  ];

  override readonly triggers: Trigger[] = [
    {
      type: 'route',
      id: 'message',
      method: 'POST',
      path: '/notes/:user',
      handler: async (request, response, runtime) => {
        const task = await runtime.dispatch({
          pluginId: this.id,
          triggerId: 'message',
          space: spaceId('notes', 'user', String(request.params.user)),
          message: String(
            (request.body as { text?: unknown } | undefined)?.text ?? '',
          ),
        });
        response.json({
          status: task.status,
          answer: task.chain.at(-1)?.message,
        });
      },
    },
  ];

  private readonly maxNotesShown: number;

  constructor(options: NotesPluginOptions = {}) {
    super();
    const max = options.maxNotesShown ?? 10;
    if (!Number.isInteger(max) || max < 1) {
      throw new Error(
        `NotesPlugin: option "maxNotesShown" must be a positive integer, got ${max}`,
      );
    }
    this.maxNotesShown = max;
  }

  /**
   * Refuses to start when the memory store is down: every action of this plugin
   * needs it.
   */
  override async init(runtime: Runtime): Promise<void> {
    if (!(await runtime.memory.provider.checkHealth())) {
      throw new Error(
        `memory provider "${runtime.memory.provider.id}" is not healthy`,
      );
    }
  }

  override async shutdown(): Promise<void> {
    // Nothing to release: the notes live in the runtime's memory provider.
  }
}
