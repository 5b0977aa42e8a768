import type { Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/agent.js';
import { createScriptedModel } from '../src/scripted-model.js';

// The whole agent with the clock plugin wired in, on a free port, with the scripted model.
describe('the clock plugin in the agent', () => {
  let runtime: Runtime | undefined;

  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
  });

  async function ask(
    text: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    if (!runtime) {
      runtime = await createAgent({
        model: createScriptedModel(),
        memory: new InMemoryMemoryProvider(),
        port: 0,
      });
      await runtime.start();
    }
    const response = await fetch(`${runtime.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text }),
      signal: AbortSignal.timeout(10_000),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it('answers a question about the time with the clock, in UTC [claim:gs-routes] [claim:gs-add-plugin-route] [claim:gs-add-plugin-clock]', async () => {
    const { status, body } = await ask('What time is it?');
    expect(status).toBe(200);
    expect(body.reply).toMatch(/^It is \d\d:\d\d in UTC\.$/);
  });

  it('tells the time in the zone the message names, of two or three parts, with - or + [claim:gs-add-plugin-clock]', async () => {
    const zones = [
      'Asia/Tokyo',
      'America/Argentina/Buenos_Aires',
      'America/Port-au-Prince',
      'Etc/GMT+5',
    ];
    for (const zone of zones) {
      // The time in that zone before and after the request: the minute may turn in between.
      const clock = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        timeStyle: 'short',
      });
      const before = clock.format(new Date());
      const { status, body } = await ask(`What time is it in ${zone}?`);
      const after = clock.format(new Date());
      expect(status).toBe(200);
      expect([
        `It is ${before} in ${zone}.`,
        `It is ${after} in ${zone}.`,
      ]).toContain(body.reply);
    }
  });

  it('tells the time in a zone of one part, such as Japan, and takes other capitalised words for none [claim:gs-add-plugin-clock]', async () => {
    const clock = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Japan',
      timeStyle: 'short',
    });
    const before = clock.format(new Date());
    const japan = await ask('What time is it in Japan?');
    const after = clock.format(new Date());
    expect(japan.status).toBe(200);
    expect([`It is ${before} in Japan.`, `It is ${after} in Japan.`]).toContain(
      japan.body.reply,
    );
    const paris = await ask('What time is it in Paris?');
    expect(paris.status).toBe(200);
    expect(paris.body.reply).toMatch(/^It is \d\d:\d\d in UTC\.$/);
  });

  it('reads the zone a message names beside other words with a slash [claim:gs-add-plugin-clock]', async () => {
    const { status, body } = await ask(
      'What time and/or day is it in Asia/Tokyo?',
    );
    expect(status).toBe(200);
    expect(body.reply).toMatch(/^It is \d\d:\d\d in Asia\/Tokyo\.$/);
  });

  it('shows the user its error about an unknown zone, with 422 [claim:exec-expose-generated] [claim:gs-422] [claim:gs-handler-422] [claim:gs-add-plugin-expose]', async () => {
    const { status, body } = await ask('What time is it in Mars/Olympus?');
    expect(status).toBe(422);
    expect(body).toMatchObject({
      status: 'failed',
      error:
        '"Mars/Olympus" is not a time zone I know; name one such as Europe/Paris.',
    });
  });

  it('leaves every other message to the assistant [claim:gs-routes] [claim:gs-add-plugin-route]', async () => {
    const { body } = await ask('Hello');
    expect(body.reply).toBe('You said "Hello". Your Weft agent is listening.');
  });
});
