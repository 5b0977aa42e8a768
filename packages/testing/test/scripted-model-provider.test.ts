/** What a ScriptedModelProvider is (its id, capability and health) and the kinds of answer it gives. */
import { describe, expect, it } from 'vitest';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '../src/index.js';

describe('ScriptedModelProvider', () => {
  it('refuses an id that is empty or white space alone, or not a string, as InMemoryMemoryProvider does [claim:testing-scripted-blank-id] [claim:tst-scripted-blank-id]', () => {
    const cases: [unknown, string][] = [
      ['', '""'],
      ['   ', '"   "'],
      ['\t\n', '"\\t\\n"'],
      [5, 'number 5'],
    ];
    for (const [id, got] of cases) {
      let thrown: unknown;
      try {
        new ScriptedModelProvider({ id } as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, got).toMatchObject({ code: 'WEFT_TESTING_INVALID_OPTIONS' });
      expect((thrown as Error).message).toBe(
        `ScriptedModelProvider: option "id" must be a non-empty string, got ${got}. [WEFT_TESTING_INVALID_OPTIONS]`,
      );
      // InMemoryMemoryProvider refuses the same ids with the same code and rule, under its name.
      let refused: unknown;
      try {
        new InMemoryMemoryProvider({ id } as never);
      } catch (error) {
        refused = error;
      }
      expect(refused, got).toMatchObject({ code: 'WEFT_TESTING_INVALID_OPTIONS' });
      expect((refused as Error).message).toMatch(
        /^InMemoryMemoryProvider: option "id" must be a non-empty string, got /,
      );
    }
    expect(new ScriptedModelProvider({ id: ' planner ' }).id).toBe(' planner ');
  });

  it('refuses options it would ignore or misread with WEFT_TESTING_INVALID_OPTIONS, naming the option [claim:cfg-package-options-checked] [claim:tst-readme-invalid-options]', () => {
    const cases: [unknown, string][] = [
      ['plan', 'options must be an object, got "plan"'],
      [{ respones: ['{}'] }, 'unknown option "respones"; the options are id, responses, fallback'],
      [{ id: '' }, 'option "id" must be a non-empty string, got ""'],
      [{ responses: '{"steps":[]}' }, 'option "responses" must be a list of responses'],
      [
        { responses: ['{}', 42] },
        'option "responses[1]" must be text, an object, a list or a function, got number 42',
      ],
      [
        // A hole of a sparse list would be queued as undefined and end the script there.
        // eslint-disable-next-line no-sparse-arrays
        { responses: [, 'second'] },
        'option "responses[0]" must be text, an object, a list or a function, got undefined',
      ],
      [
        { responses: new Array(2) },
        'option "responses[0]" must be text, an object, a list or a function, got undefined',
      ],
      [
        { fallback: null },
        'option "fallback" must be text, an object, a list or a function, got null',
      ],
    ];
    for (const [options, message] of cases) {
      let thrown: unknown;
      try {
        new ScriptedModelProvider(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, message).toMatchObject({ code: 'WEFT_TESTING_INVALID_OPTIONS' });
      expect((thrown as Error).message, message).toContain(`ScriptedModelProvider: ${message}`);
    }
    const model = new ScriptedModelProvider({
      id: 'planner',
      responses: ['text', { steps: [] }, [], () => 'answer'],
      fallback: 'done',
    });
    expect(model.remaining).toBe(4);
  });

  it('refuses a response given to enqueue() that is not one, naming its position and queueing none of that call [claim:tst-readme-invalid-options] [claim:tsdoc-scripted-enqueue-refuses]', async () => {
    const model = new ScriptedModelProvider({ responses: ['first'], fallback: 'fallback' });
    const refusals: [unknown[], string][] = [
      [
        ['second', undefined],
        'response 2 given to enqueue() must be text, an object, a list or a function, got undefined',
      ],
      [
        [42],
        'response 1 given to enqueue() must be text, an object, a list or a function, got number 42',
      ],
      [
        [{ type: 'stop' }, null],
        'response 2 given to enqueue() must be text, an object, a list or a function, got null',
      ],
    ];
    for (const [responses, message] of refusals) {
      let thrown: unknown;
      try {
        model.enqueue(...(responses as never[]));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, message).toMatchObject({ code: 'WEFT_TESTING_INVALID_OPTIONS' });
      expect((thrown as Error).message, message).toContain(`ScriptedModelProvider: ${message}`);
    }
    // Nothing of a refused call was queued: after "first", the fallback answers.
    expect(model.remaining).toBe(1);
    const [generate] = model.capabilities;
    const answers: string[] = [];
    for (const content of ['a', 'b']) {
      const { text } = (await generate!.run({ messages: [{ role: 'user', content }] }, {})) as {
        text: string;
      };
      answers.push(text);
    }
    expect(answers).toEqual(['first', 'fallback']);
  });

  it('is named scripted unless told another id, and offers text-generation [claim:testing-scripted-id] [claim:mpo-scripted-id] [claim:tst-scripted-id]', () => {
    expect(new ScriptedModelProvider().id).toBe('scripted');
    expect(new ScriptedModelProvider({ id: 'planner' }).id).toBe('planner');
    expect(new ScriptedModelProvider().capabilities.map((capability) => capability.id)).toEqual([
      'text-generation',
    ]);
  });

  it('answers the responses option first, then what enqueue adds, in order; remaining counts both, and keeps every request [claim:testing-scripted-queue] [claim:exec-scripted-provider] [claim:exec-scripted-requests]', async () => {
    const model = new ScriptedModelProvider({ responses: ['first', 'second'] });
    model.enqueue('third', 'fourth');
    expect(model.remaining).toBe(4);
    const [generate] = model.capabilities;
    const answers: string[] = [];
    for (const content of ['a', 'b', 'c']) {
      const { text } = (await generate!.run({ messages: [{ role: 'user', content }] }, {})) as {
        text: string;
      };
      answers.push(text);
    }
    // Added while answers are being taken: still after everything queued before.
    model.enqueue('fifth');
    for (const content of ['d', 'e']) {
      const { text } = (await generate!.run({ messages: [{ role: 'user', content }] }, {})) as {
        text: string;
      };
      answers.push(text);
    }
    expect(answers).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
    expect(model.remaining).toBe(0);
    expect(model.requests).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((content) => [{ role: 'user', content }]),
    );
  });

  it('numbers an exhausted call among all the calls it has received, failed ones included, from 1 [claim:testing-scripted-exhausted-code]', async () => {
    const model = new ScriptedModelProvider({ responses: ['first'] });
    const [generate] = model.capabilities;
    const call = () =>
      generate!.run({ messages: [{ role: 'user', content: 'x' }] }, {}).then(
        (output) => (output as { text: string }).text,
        (error: unknown) => (error as Error).message,
      );
    const exhausted = (n: number) =>
      `ScriptedModelProvider "scripted": no scripted response left for request #${n}; enqueue more or set a fallback [WEFT_TESTING_SCRIPT_EXHAUSTED]`;
    expect(await call()).toBe('first');
    expect(await call()).toBe(exhausted(2));
    // Calls that found the queue empty count too: this is the third call.
    expect(await call()).toBe(exhausted(3));
    model.enqueue('fourth');
    expect(await call()).toBe('fourth');
    expect(await call()).toBe(exhausted(5));
  });

  it("answers true from the base class's checkHealth [claim:mpo-base-health]", async () => {
    expect(await new ScriptedModelProvider().checkHealth()).toBe(true);
  });

  it('answers a string as is, an object or array as JSON text, and what a function returns, awaited [claim:testing-scripted-response-kinds] [claim:go-scripted-json] [claim:exec-scripted-provider]', async () => {
    const seen: { last: string | undefined; purpose: string | undefined }[] = [];
    const model = new ScriptedModelProvider({
      responses: [
        'plain text',
        { steps: [] },
        [1, 'two'],
        (messages, request) => {
          seen.push({ last: messages.at(-1)?.content, purpose: request.purpose });
          return ['from', 'a function'];
        },
        async (messages) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { echoed: messages.at(-1)?.content };
        },
      ],
    });
    const [generate] = model.capabilities;
    const answer = async (content: string) =>
      (
        (await generate!.run({ messages: [{ role: 'user', content }] }, { purpose: 'test' })) as {
          text: string;
        }
      ).text;
    expect(await answer('one')).toBe('plain text');
    expect(await answer('two')).toBe('{"steps":[]}');
    expect(await answer('three')).toBe('[1,"two"]');
    expect(await answer('four')).toBe('["from","a function"]');
    expect(seen).toEqual([{ last: 'four', purpose: 'test' }]);
    expect(await answer('five')).toBe('{"echoed":"five"}');
  });
});
