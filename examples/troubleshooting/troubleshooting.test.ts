import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Runtime, WeftError } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../getting-started/agent.js';
import { createScriptedModel } from '../getting-started/scripted-model.js';
import { TicketTriage, triage } from './structured-reply.js';

const logger = pino({ level: 'silent' });

describe('troubleshooting', () => {
  it('fails to start with WEFT_LISTEN_FAILED when the port is taken, shutting down what had started [claim:trouble-listen-failed] [claim:trouble-check-it]', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) =>
      squatter.listen(0, '127.0.0.1', resolve),
    );
    const { port } = squatter.address() as AddressInfo;
    // The memory provider starts before the server: a failed start must shut it down again.
    let memoryShutdowns = 0;
    const memory = new (class extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        memoryShutdowns += 1;
      }
    })();
    const runtime = await createAgent({
      model: createScriptedModel(),
      memory,
      port,
      logger,
    });
    try {
      const error = await runtime.start().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, 'WEFT_LISTEN_FAILED')).toBe(true);
      expect((error as Error).message).toContain(`127.0.0.1:${port}`);
      expect((error as Error).message).toContain('EADDRINUSE');
      expect(memoryShutdowns).toBe(1);
      expect(runtime.status).toBe('stopped');
    } finally {
      await runtime.stop();
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('starts beside a program that holds the port on ::1 only, as the site does where localhost is ::1 [claim:trouble-agent-beside-ipv6-site] [claim:trouble-check-it]', async (context) => {
    const site = createServer((_request, response) => response.end('the site'));
    const listening = await new Promise<boolean>((resolve) => {
      site.once('error', () => resolve(false));
      site.listen(0, '::1', () => resolve(true));
    });
    // A machine without an IPv6 loopback cannot show this.
    if (!listening) context.skip();
    const { port } = site.address() as AddressInfo;
    const runtime = await createAgent({
      model: createScriptedModel(),
      memory: new InMemoryMemoryProvider(),
      port,
      logger,
    });
    try {
      await runtime.start();
      expect(runtime.server.url).toBe(`http://127.0.0.1:${port}`);
      const agent = await fetch(`${runtime.server.url}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ada', text: 'Hello' }),
      });
      expect(agent.status).toBe(200);
      const other = await fetch(`http://[::1]:${port}/messages`, {
        method: 'POST',
      });
      expect(await other.text()).toBe('the site');
    } finally {
      await runtime.stop();
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('logs a missing API key as task failed with the 401, because planning is the first model call [claim:obs-error-code-docsurl] [claim:trouble-401-no-retry] [claim:trouble-500-no-details] [claim:trouble-task-failed-fields] [claim:trouble-check-it] [claim:trouble-401-fails-no-retry]', async () => {
    // A stand-in for OpenAI: it refuses any request without a key, as the real API does.
    const seen: (string | undefined)[] = [];
    const openai = createServer((request, response) => {
      seen.push(request.headers.authorization);
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"You didn\'t provide an API key."}}');
    });
    await new Promise<void>((resolve) =>
      openai.listen(0, '127.0.0.1', resolve),
    );
    const { port } = openai.address() as AddressInfo;
    const lines: Record<string, unknown>[] = [];
    const runtime = await createAgent({
      model: new OpenAIModelProvider({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        // What the getting-started model sends with OPENAI_API_KEY unset.
        apiKey: () => '',
        model: 'gpt-4o-mini',
      }),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      logger: pino(
        { level: 'warn' },
        { write: (line: string) => lines.push(JSON.parse(line) as never) },
      ),
    });
    try {
      await runtime.start();
      const response = await fetch(`${runtime.server.url}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ada', text: 'Hello' }),
      });
      expect(response.status).toBe(500);
      const body = (await response.json()) as { taskId: string; error: string };
      expect(body.error).toBe(
        'The agent could not answer. The server log has the details under this taskId.',
      );
      expect(seen).toEqual([undefined]);
      expect(lines.some((line) => line.msg === 'step failed')).toBe(false);
      const failed = lines.find((line) => line.msg === 'task failed');
      expect(failed).toMatchObject({
        taskId: body.taskId,
        code: 'WEFT_OPENAI_HTTP_STATUS',
      });
      expect(failed?.error).toMatch(/"openai".*401/);
      expect(failed?.error).toContain("You didn't provide an API key.");
    } finally {
      await runtime.stop();
      await new Promise((resolve) => openai.close(resolve));
    }
  });

  it('fails the start with checkHealthOnStart when the key is missing, since GET /models answers 401 too [claim:trouble-health-check-key] [claim:trouble-check-it]', async () => {
    const seen: string[] = [];
    const openai = createServer((request, response) => {
      seen.push(
        `${request.method} ${request.url} ${request.headers.authorization ?? 'no key'}`,
      );
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"You didn\'t provide an API key."}}');
    });
    await new Promise<void>((resolve) =>
      openai.listen(0, '127.0.0.1', resolve),
    );
    const { port } = openai.address() as AddressInfo;
    const runtime = await createAgent({
      model: new OpenAIModelProvider({
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: () => '',
        model: 'gpt-4o-mini',
      }),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      checkHealthOnStart: true,
      logger,
    });
    try {
      const error = await runtime.start().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, 'WEFT_START_FAILED')).toBe(true);
      expect((error as Error).message).toContain(
        'model provider "openai" is not healthy: checkHealth() answered false',
      );
      expect((error as Error).message).not.toContain('401');
      expect(seen).toEqual(['GET /v1/models no key']);
    } finally {
      await runtime.stop();
      await new Promise((resolve) => openai.close(resolve));
    }
  });

  it('reads JSON out of a sentence around it or a code fence, but not out of prose alone, prose with braces of its own or a bracket before it [claim:trouble-getobject-prose] [claim:trouble-check-it]', async () => {
    const valid = { category: 'bug', urgent: true, summary: 'Export fails' };
    const model = new ScriptedModelProvider({
      responses: [
        `Sure! Here is the triage:\n${JSON.stringify(valid)}\nAnything else?`,
        // A code fence is read on its own, braces in the prose around it or not.
        `Fields {category, urgent, summary}:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``,
        'This is a bug, and an urgent one.',
        `Fields {category, urgent, summary}: ${JSON.stringify(valid)}`,
        // A `[` before the object: the text is read from it to the last `]`, here `[1]`.
        `Sources [1]: ${JSON.stringify(valid)}`,
        // After the object, a bracket does no harm: the text is read from the `{`.
        `${JSON.stringify(valid)} [1]`,
      ],
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger },
    });
    const ask = () =>
      runtime.models
        .getObject({ schema: TicketTriage, prompt: 'Ticket', maxRetries: 0 })
        .catch((error: unknown) => error);

    expect(await ask()).toEqual(valid);
    expect(await ask()).toEqual(valid);
    const proseOnly = await ask();
    expect(WeftError.is(proseOnly, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    expect((proseOnly as Error).message).toContain('the answer is not JSON');
    const ownBraces = await ask();
    expect(WeftError.is(ownBraces, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    const bracketBefore = await ask();
    expect(WeftError.is(bracketBefore, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    expect(await ask()).toEqual(valid);
    expect(model.requests).toHaveLength(6);
  });

  it('asks again with the validation error or the parse error, gives up with WEFT_GET_OBJECT_FAILED after the default 2 retries, and succeeds when a retry is valid [claim:trouble-getobject-retries] [claim:trouble-check-it]', async () => {
    const prose = 'Sure! This looks like a billing question.';
    const valid = {
      category: 'billing',
      urgent: false,
      summary: 'Charged twice',
    };
    // JSON that fails the schema: "refund" is not one of the categories.
    const wrongCategory = { ...valid, category: 'refund' };
    const model = new ScriptedModelProvider({
      responses: [wrongCategory, ...Array<string>(6).fill(prose), valid],
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      // getObjectRetries left at its default.
      options: { logger },
    });

    const defaultRetries = await runtime.models
      .getObject({ schema: TicketTriage, prompt: 'Ticket: charged twice' })
      .catch((error: unknown) => error);
    expect(WeftError.is(defaultRetries, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    expect((defaultRetries as Error).message).toContain('after 3 attempt(s)');
    expect(model.requests).toHaveLength(3);
    // The second call shows the model what was wrong with the first answer.
    const retry = model.requests[1]?.at(-1)?.content ?? '';
    expect(retry).toContain('not valid for the schema');
    expect(retry).toContain('category');
    // After an answer that is not JSON, the third call shows why it did not parse.
    const afterProse = model.requests[2]?.at(-1)?.content ?? '';
    expect(afterProse).toContain('not valid for the schema');
    expect(afterProse).toContain('the answer is not JSON');

    // Three answers used above; the helper's five attempts see four prose ones, then the valid one.
    await expect(
      triage(runtime.models, 'I was charged twice'),
    ).resolves.toEqual(valid);
    expect(model.requestOptions.at(-1)).toMatchObject({
      temperature: 0,
      json: true,
    });
  });

  it('ends the first line of the final error with the code when the last problem spans lines, and puts a one-line problem before it [claim:trouble-getobject-last-error] [claim:trouble-check-it]', async () => {
    // The planner asks for schema "Pipeline"; the same names are used here.
    const wrong = {
      category: 'refund',
      urgent: 'yes',
      summary: 'Charged twice',
    };
    const model = new ScriptedModelProvider({
      responses: [wrong, wrong, wrong, 'Sure! A billing question.'],
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger },
    });
    const severalLines = await runtime.models
      .getObject({
        schema: TicketTriage,
        schemaName: 'Pipeline',
        prompt: 'Ticket',
      })
      .catch((error: unknown) => error);
    expect(WeftError.is(severalLines, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    const [first, ...rest] = (severalLines as Error).message.split('\n');
    // The first line of the page's sample, word for word.
    expect(first).toBe(
      `getObject: the model's answer did not match schema "Pipeline" after 3 attempt(s); last error: [WEFT_GET_OBJECT_FAILED]`,
    );
    expect(rest.join('\n')).toContain('category');
    expect(rest.join('\n')).toContain('urgent');

    const oneLine = await runtime.models
      .getObject({
        schema: TicketTriage,
        schemaName: 'Pipeline',
        prompt: 'Ticket',
        maxRetries: 0,
      })
      .catch((error: unknown) => error);
    expect(WeftError.is(oneLine, 'WEFT_GET_OBJECT_FAILED')).toBe(true);
    expect((oneLine as Error).message).not.toContain('\n');
    expect((oneLine as Error).message).toMatch(
      /last error: the answer is not JSON .*\[WEFT_GET_OBJECT_FAILED\]$/,
    );
  });
});
