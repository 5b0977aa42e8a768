import {
  defineCapability,
  Runtime,
  type ModelCapability,
  type RuntimeConfig,
  type TriggerRoute,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  echoPlugin,
  errorOf,
  makeRuntime,
  recordingExecutor,
  sentimentCapability,
  silentLogger,
  startedRuntime,
  TestModelProvider,
  TestPlugin,
} from './fixtures.js';

function base(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    models: [new ScriptedModelProvider()],
    memory: new InMemoryMemoryProvider(),
    plugins: [echoPlugin()],
    ...overrides,
    options: { logger: silentLogger, ...overrides.options },
  };
}

async function initError(config: RuntimeConfig): Promise<string> {
  const error = await errorOf(Runtime.init(config));
  expect(error.message).toMatch(/^Runtime\.init: invalid configuration:/);
  expect((error as { code?: string }).code).toBe('WEFT_INVALID_CONFIG');
  return error.message;
}

const sentimentOnly: ModelCapability = { id: 'sentiment', run: async () => ({ score: 0 }) };

/** A route trigger `id` on POST /chat, for configurations in which two plugins claim it. */
const chatRoute = (id: string) => ({
  type: 'route' as const,
  id,
  method: 'POST' as const,
  path: '/chat',
  handler: () => undefined,
});

describe('Runtime.init configuration checks', () => {
  it('builds a ready runtime from a valid configuration', async () => {
    const runtime = await Runtime.init(base());
    expect(runtime.status).toBe('ready');
    expect(runtime.plugins.list().map((plugin) => plugin.id)).toEqual(['echo']);
    expect(runtime.prompts.has('core/pipeline-generation')).toBe(true);
  });

  it("gives the runtime's scheduler 4 workers unless scheduler.concurrency says otherwise [claim:philo-parallel]", async () => {
    expect((await Runtime.init(base())).scheduler.concurrency).toBe(4);
    const two = await Runtime.init(base({ options: { scheduler: { concurrency: 2 } } }));
    expect(two.scheduler.concurrency).toBe(2);
  });

  it('rejects a configuration that is not an object', async () => {
    expect(await initError(null as unknown as RuntimeConfig)).toContain(
      'the configuration must be an object',
    );
  });

  it('requires at least one model provider [claim:cfg-models-row]', async () => {
    expect(await initError(base({ models: [] }))).toContain(
      'models: list at least one model provider',
    );
  });

  it('names the entry of models that is not a provider', async () => {
    const message = await initError(
      base({ models: [new ScriptedModelProvider(), { id: 'fake' } as never] }),
    );
    expect(message).toContain(
      'models[1]: expected a ModelProvider instance, got an instance of Object',
    );
  });

  it('names a provider id used twice [claim:core-readme-init-checks] [claim:cfg-models-row]', async () => {
    const message = await initError(
      base({
        models: [
          new ScriptedModelProvider({ id: 'twin' }),
          new ScriptedModelProvider({ id: 'twin' }),
        ],
      }),
    );
    expect(message).toContain('model "twin": two providers share this id');
  });

  it('lists a null trigger of one plugin beside the problems of the plugins after it, rather than crashing on it [claim:core-readme-init-checks]', async () => {
    // From JavaScript: the routes of earlier plugins are read to find clashes, this one's too.
    const holey = new TestPlugin('holey', { triggers: [null as never] });
    const message = await initError(base({ plugins: [holey, new TestPlugin('Later')] }));
    expect(message.split('\n- ').slice(1)).toEqual([
      'plugin "holey": a trigger has no id',
      'plugin "Later": id must be lower-case letters, digits and dashes, starting with a letter (got "Later")',
    ]);
  });

  it('rejects a memory that is not a provider [claim:core-readme-init-checks]', async () => {
    const message = await initError(base({ memory: { id: 'nope' } as never }));
    expect(message).toContain('memory: expected a MemoryProvider instance');
  });

  it('names a coordinator that is not a SpaceCoordinator [claim:core-readme-init-checks]', async () => {
    // It has init and shutdown, but none of the methods that order a space's tasks.
    const coordinator = { id: 'half', init: async () => {}, shutdown: async () => {} };
    const message = await initError(base({ coordinator: coordinator as never }));
    expect(message.split('\n- ').slice(1)).toEqual([
      'coordinator: expected a SpaceCoordinator instance, got an instance of Object',
    ]);
  });

  it('lists a missing memory among the problems instead of failing on it [claim:philo-init-one-error]', async () => {
    // The names bulkhead limits may use include the memory's: a missing one was a TypeError.
    for (const memory of [undefined, null]) {
      const message = await initError(
        base({
          memory: memory as never,
          plugins: [echoPlugin(), echoPlugin()],
          options: { bulkhead: { limits: { 'plugin:echo': 1, 'memory:in-memory': 1 } } },
        }),
      );
      expect(message.split('\n- ').slice(1)).toEqual([
        `memory: expected a MemoryProvider instance, got ${String(memory)}`,
        'plugin "echo": another plugin already has this id',
        'options.bulkhead.limits["memory:in-memory"]: no such dependency; configured: "model:scripted", "plugin:echo"',
      ]);
    }
  });

  it('names a plugin id used twice [claim:plugin-id-rule] [claim:gs-init-one-error]', async () => {
    const message = await initError(base({ plugins: [echoPlugin(), echoPlugin()] }));
    expect(message).toContain('plugin "echo": another plugin already has this id');
  });

  it('names an invalid plugin id [claim:plugin-id-rule]', async () => {
    const message = await initError(base({ plugins: [new TestPlugin('Bad Id')] }));
    expect(message).toContain('plugin "Bad Id": id must be lower-case letters, digits and dashes');
    // A digit or a dash may follow the first letter, but not start the id; nothing else may appear.
    for (const id of ['1notes', '-notes', 'notes_2', 'Notes']) {
      expect(await initError(base({ plugins: [new TestPlugin(id)] }))).toContain(
        `plugin "${id}": id must be lower-case letters, digits and dashes, starting with a letter`,
      );
    }
    const kept = await Runtime.init(base({ plugins: [new TestPlugin('issue-triage-2')] }));
    expect(kept.plugins.get('issue-triage-2')).toBeInstanceOf(TestPlugin);
  });

  it('names a duplicate executor action [claim:plugin-executor-rules] [claim:exec-action-unique]', async () => {
    const plugin = new TestPlugin('tools', {
      executors: [recordingExecutor('search'), recordingExecutor('search')],
    });
    const message = await initError(base({ plugins: [plugin] }));
    expect(message).toContain('plugin "tools": executor action "search" is defined twice');
  });

  it('names an executor without a description [claim:plugin-executor-rules] [claim:philo-description-required]', async () => {
    const plugin = new TestPlugin('tools', {
      executors: [recordingExecutor('search', undefined, '  ')],
    });
    const message = await initError(base({ plugins: [plugin] }));
    expect(message).toContain('plugin "tools": executor "search" needs a description');
  });

  it('gives the whole message as the Building plugins page shows it: a line ending in the code, then one line per problem [claim:plugin-init-message] [claim:plugin-capability-message]', async () => {
    const notes = new TestPlugin('notes', {
      executors: [recordingExecutor('save', undefined, '')],
    });
    expect(await initError(base({ plugins: [notes] }))).toBe(
      'Runtime.init: invalid configuration: [WEFT_INVALID_CONFIG]\n' +
        '- plugin "notes": executor "save" needs a description (the model chooses executors by it)',
    );
    const feedback = new TestPlugin('feedback', { requiredCapabilities: ['sentiment'] });
    expect(await initError(base({ plugins: [feedback] }))).toBe(
      'Runtime.init: invalid configuration: [WEFT_INVALID_CONFIG]\n' +
        '- plugin "feedback": requires capability "sentiment", which no model provider offers',
    );
  });

  it('names a duplicate trigger id [claim:plugin-trigger-rules] [claim:trig-methods-params]', async () => {
    const start = { type: 'start' as const, id: 'tick', start: () => undefined };
    const plugin = new TestPlugin('clock', { triggers: [start, start] });
    const message = await initError(base({ plugins: [plugin] }));
    expect(message).toContain('plugin "clock": trigger id "tick" is used twice');
  });

  it('takes a route only on GET, POST, PUT, PATCH or DELETE, spelt in capitals [claim:trig-methods-params]', async () => {
    const on = (method: string) => ({
      type: 'route' as const,
      id: `on-${method}`,
      method: method as 'GET',
      path: `/${method}`,
      handler: () => undefined,
    });
    const plugin = new TestPlugin('verbs', {
      triggers: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get'].map(on),
    });
    expect(await initError(base({ plugins: [plugin] }))).toBe(
      'Runtime.init: invalid configuration: [WEFT_INVALID_CONFIG]\n' +
        '- plugin "verbs": trigger "on-HEAD" has unsupported method "HEAD"\n' +
        '- plugin "verbs": trigger "on-OPTIONS" has unsupported method "OPTIONS"\n' +
        '- plugin "verbs": trigger "on-get" has unsupported method "get"',
    );
  });

  it('names the route that two plugins both claim [claim:plugin-trigger-rules] [claim:philo-init-one-error] [claim:trig-route-clash]', async () => {
    const message = await initError(
      base({
        plugins: [
          new TestPlugin('first', { triggers: [chatRoute('a')] }),
          new TestPlugin('second', { triggers: [chatRoute('b')] }),
        ],
      }),
    );
    expect(message).toContain('plugin "second": route POST /chat of trigger "b" is already taken');
    expect(message).not.toContain('plugin "first"');
  });

  it('names a route that two triggers of one plugin both claim [claim:plugin-trigger-rules]', async () => {
    const plugin = new TestPlugin('chat', { triggers: [chatRoute('a'), chatRoute('b')] });
    expect(await initError(base({ plugins: [plugin] }))).toBe(
      'Runtime.init: invalid configuration: [WEFT_INVALID_CONFIG]\n' +
        '- plugin "chat": route POST /chat of trigger "b" is already taken',
    );
  });

  it('names an id or a route shared with an earlier plugin that has problems of its own [claim:philo-init-one-error] [claim:plugin-registration-all-problems]', async () => {
    const undescribed = recordingExecutor('save', undefined, '');
    const message = await initError(
      base({
        plugins: [
          new TestPlugin('first', { executors: [undescribed], triggers: [chatRoute('a')] }),
          new TestPlugin('first'),
          new TestPlugin('second', { triggers: [chatRoute('b')] }),
        ],
      }),
    );
    expect(message.split('\n- ').slice(1)).toEqual([
      'plugin "first": executor "save" needs a description (the model chooses executors by it)',
      'plugin "first": another plugin already has this id',
      'plugin "second": route POST /chat of trigger "b" is already taken',
    ]);
  });

  it('compares routes as written: paths that differ in letter case, a trailing slash or a parameter name both pass, and the first mounted answers them all [claim:trig-route-overlap] [claim:errors-route-clash-as-written]', async () => {
    const answering = (path: string): TriggerRoute => ({
      type: 'route',
      id: 'read',
      method: 'GET',
      path,
      handler: (_request, response) => response.json({ path }),
    });
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('first', { triggers: [answering('/notes/:user')] }),
        new TestPlugin('second', { triggers: [answering('/Notes/:name/')] }),
      ],
      options: { server: { port: 0 } },
    });
    const answers: unknown[] = [];
    for (const path of ['/notes/ada', '/notes/ada/', '/Notes/ada']) {
      const response = await fetch(`${runtime.server.url}${path}`, {
        signal: AbortSignal.timeout(5_000),
      });
      answers.push(await response.json());
    }
    expect(answers).toEqual([
      { path: '/notes/:user' },
      { path: '/notes/:user' },
      { path: '/notes/:user' },
    ]);
  });

  it('fails the start with WEFT_INVALID_ARGUMENT naming the plugin and the route when express cannot read a path, and stops again [claim:trig-route-path-unreadable] [claim:obs-rollback-on-timeout] [claim:plugin-route-path-at-start] [claim:errors-invalid-argument-route-path]', async () => {
    // Runtime.init checks the leading slash only.
    const download: TriggerRoute = {
      type: 'route',
      id: 'download',
      method: 'GET',
      path: 'files',
      handler: (_request, response) => response.end(),
    };
    expect(
      await initError(base({ plugins: [new TestPlugin('files', { triggers: [download] })] })),
    ).toContain('plugin "files": trigger "download" path must start with "/" (got "files")');
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [
        new TestPlugin('files', {
          triggers: [
            {
              type: 'route',
              id: 'download',
              method: 'GET',
              // express 4 read a bare wildcard; express 5 wants it named (/files/*path).
              path: '/files/*',
              handler: (_request, response) => response.end(),
            },
          ],
        }),
      ],
      options: { logger, server: { port: 0 } },
    });
    const error = await errorOf(runtime.start());
    expect((error as { code?: string }).code).toBe('WEFT_INVALID_ARGUMENT');
    expect(
      lines.find((line) => line.msg === 'runtime failed to start; rolling back'),
    ).toMatchObject({ level: 50, code: 'WEFT_INVALID_ARGUMENT' });
    expect(error.message).toContain(
      'ServerManager: route GET /files/* of plugin "files" has a path express cannot read',
    );
    expect(error.message).toContain("'/files/*path'");
    expect(runtime.status).toBe('stopped');
    expect(runtime.server.port).toBeUndefined();
  });

  it('requires a provider of text-generation [claim:mpi-text-generation-needed] [claim:core-readme-models] [claim:cfg-models-row]', async () => {
    const provider = new TestModelProvider('sentiment-only', {
      capabilities: [sentimentOnly],
      descriptors: [sentimentCapability],
    });
    const message = await initError(base({ models: [provider] }));
    expect(message).toContain('no model provider offers "text-generation"');
  });

  it('takes a provider that offers text-generation only through an alias of it [claim:cfg-models-row] [claim:core-readme-models]', async () => {
    const chat = defineCapability({
      id: 'chat',
      description: 'Chats.',
      input: z.object({ text: z.string() }),
      output: z.string(),
    });
    const provider = new TestModelProvider('chat-only', {
      capabilities: [{ id: 'chat', run: async () => 'hi' }],
      descriptors: [chat],
    });
    const runtime = await Runtime.init(
      base({ models: [provider], capabilityAliases: [['chat', 'text-generation']] }),
    );
    expect(runtime.status).toBe('ready');
    // Without the alias group, the same provider is refused.
    expect(await initError(base({ models: [provider] }))).toContain(
      'no model provider offers "text-generation" (or an alias of it)',
    );
  });

  it('names the plugin whose required capability no model offers [claim:plugin-required-caps] [claim:mpi-required-checked] [claim:core-readme-init-checks] [claim:cfg-models-row]', async () => {
    const plugin = new TestPlugin('vision', { requiredCapabilities: ['image-caption'] });
    const message = await initError(base({ plugins: [plugin] }));
    expect(message).toContain(
      'plugin "vision": requires capability "image-caption", which no model provider offers',
    );
  });

  it('names a plugin whose requiredCapabilities is not a list of ids, once, rather than a problem per letter', async () => {
    const word = new TestPlugin('worded', { requiredCapabilities: 'text-generation' as never });
    const holed = new TestPlugin('holed', {
      requiredCapabilities: ['text-generation', 5] as never,
    });
    const message = await initError(base({ plugins: [word, holed] }));
    expect(message).toContain(
      'plugin "worded": requiredCapabilities must be an array of capability ids, such as ["text-generation"] (got "text-generation")',
    );
    expect(message).toContain(
      'plugin "holed": requiredCapabilities must be an array of capability ids, such as ["text-generation"] (got ["text-generation",5])',
    );
    expect(message).not.toContain('requires capability "t"');
  });

  it('names a required capability that is not an id once, as a shape problem, and still checks the ids beside it', async () => {
    const holed = new TestPlugin('holed', {
      requiredCapabilities: [null, '', 'image-caption', 'text-generation'] as never,
    });
    const message = await initError(base({ plugins: [holed] }));
    expect(message.split('\n- ').slice(1)).toEqual([
      'plugin "holed": requiredCapabilities must be an array of capability ids, such as ["text-generation"] (got [null,"","image-caption","text-generation"])',
      'plugin "holed": requires capability "image-caption", which no model provider offers',
    ]);
  });

  it('accepts a required capability served through capabilityAliases [claim:plugin-required-caps] [claim:core-readme-models] [claim:core-readme-aliases] [claim:cfg-models-row]', async () => {
    const plugin = new TestPlugin('chatty', { requiredCapabilities: ['chat'] });
    const chat = defineCapability({
      id: 'chat',
      description: 'Chats.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
    });
    const provider = new TestModelProvider('chat-descriptor', { descriptors: [chat] });
    const runtime = await Runtime.init(
      base({
        models: [new ScriptedModelProvider(), provider],
        plugins: [plugin],
        capabilityAliases: [['text-generation', 'chat']],
      }),
    );
    expect(runtime.models.canProvide('chat')).toBe(true);
  });

  it('names a required capability that an alias group names but no descriptor defines, whose calls would fail mid-task [claim:plugin-required-caps-defined] [claim:errors-invalid-config-required-undefined]', async () => {
    const plugin = new TestPlugin('summary', { requiredCapabilities: ['summarise'] });
    const message = await initError(
      base({ plugins: [plugin], capabilityAliases: [['summarise', 'text-generation']] }),
    );
    expect(message.split('\n- ').slice(1)).toEqual([
      'plugin "summary": requires capability "summarise", which no descriptor defines (calls to it would fail with WEFT_CAPABILITY_UNKNOWN); list its descriptor in a model provider\'s descriptors',
    ]);
  });

  it('names an unknown option key [claim:gs-init-one-error] [claim:cfg-init-checks-all]', async () => {
    const message = await initError(
      base({ options: { logger: silentLogger, maxStep: 3 } as never }),
    );
    expect(message).toMatch(/options: .*"maxStep"/);
  });

  it('names an unknown field of the configuration, such as a misspelt options [claim:cfg-init-checks-all]', async () => {
    const message = await initError(base({ option: { maxSteps: 0 }, coordinater: {} } as never));
    expect(message).toContain(
      '- option: not a field of the configuration; the fields are models, memory, plugins, capabilityAliases, coordinator, options',
    );
    expect(message).toContain('- coordinater: not a field of the configuration');
  });

  it("lists a plugin's problems beside a misspelt field of the configuration, which does not defer them [claim:philo-init-one-error] [claim:philo-init-shape-first] [claim:cfg-init-checks-all]", async () => {
    const undescribed = { ...recordingExecutor('save'), description: '' };
    const poet = new TestPlugin('poet', { executors: [undescribed] });
    const message = await initError(base({ plugins: [poet], option: { maxSteps: 3 } } as never));
    expect(message.split('\n- ').slice(1)).toEqual([
      'option: not a field of the configuration; the fields are models, memory, plugins, capabilityAliases, coordinator, options',
      'plugin "poet": executor "save" needs a description (the model chooses executors by it)',
    ]);
  });

  it('names invalid option values [claim:core-readme-init-checks] [claim:cfg-init-checks-all]', async () => {
    const message = await initError(
      base({
        options: {
          logger: silentLogger,
          maxSteps: 0,
          pipelineReview: 'sometimes' as never,
          scheduler: { concurrency: -1 },
          server: { port: 70_000 },
        },
      }),
    );
    expect(message).toContain('options.maxSteps:');
    expect(message).toContain('options.pipelineReview:');
    expect(message).toContain('options.scheduler.concurrency:');
    expect(message).toContain('options.server.port:');
  });

  it('names a server host of spaces, or with spaces around it, which would fail only when the server listens [claim:cfg-host-spaces] [claim:cfg-init-checks-all]', async () => {
    for (const host of [' ', '   ', ' 127.0.0.1', '0.0.0.0\t']) {
      const message = await initError(
        base({ options: { logger: silentLogger, server: { host } } }),
      );
      expect(message.split('\n- ').slice(1), JSON.stringify(host)).toEqual([
        "options.server.host: must not be blank or begin or end with a space, such as '127.0.0.1' or '0.0.0.0': Node.js would fail to look it up when the server starts listening",
      ]);
    }
    const runtime = await Runtime.init(base({ options: { server: { host: '::1' } } }));
    expect(runtime.status).toBe('ready');
  });

  it('names allowedHosts entries with a scheme, port, path or *, which no Host header a browser sends can match [claim:cfg-allowed-hosts-names-only] [claim:trig-allowed-hosts-names-only] [claim:cfg-init-checks-all]', async () => {
    const message = await initError(
      base({
        options: {
          logger: silentLogger,
          server: {
            allowedHosts: [
              'http://agent.example.com',
              'agent.example.com:8080',
              'agent.example.com/chat',
              '[::1]:3000',
              // The wildcard of other tools, which the host check would compare as a character.
              '*.example.com',
              // These can match, and pass: an IPv6 address, bracketed or not, a dotted domain.
              '::1',
              '[fe80::1]',
              '.corp.example',
              'Agent.Example.com.',
            ],
          },
        },
      }),
    );
    const rule =
      "must be a host name such as 'agent.example.com', or '.example.com' for a name and its subdomains, without a scheme, port or path, and without a '*', which is no wildcard here: it is compared with the name of the Host header, whose port is left out";
    expect(message.split('\n- ').slice(1)).toEqual(
      [0, 1, 2, 3, 4].map((index) => `options.server.allowedHosts.${index}: ${rule}`),
    );
  });

  it('names a server option the express middleware would misread, before building the server [claim:core-readme-init-checks] [claim:cfg-init-checks-all] [claim:trig-cors-keys-checked] [claim:trig-body-limit-forms]', async () => {
    // A plugin with a route, so that the runtime builds the HTTP server from these options.
    const withRoute = echoPlugin({
      triggers: [
        { type: 'route', id: 'in', method: 'POST', path: '/in', handler: () => undefined },
      ],
    });
    const message = await initError(
      base({
        plugins: [withRoute],
        options: {
          logger: silentLogger,
          server: {
            // The body parser reads '1m' as 1 byte; the cors middleware ignores a misspelt
            // origin and allows every origin.
            bodyLimit: '1m',
            cors: { orign: ['https://app.example.com'], maxAge: -1 } as never,
          },
        },
      }),
    );
    expect(message).toContain('options.server.bodyLimit: must be a size such as');
    expect(message).toContain('options.server.cors: Unrecognized key: "orign"');
    expect(message).toContain('options.server.cors.maxAge:');
    // 'abc', which the body parser refuses only when the server is built, is named too.
    expect(
      await initError(
        base({
          plugins: [withRoute],
          options: { logger: silentLogger, server: { bodyLimit: 'abc' } },
        }),
      ),
    ).toContain('options.server.bodyLimit:');
    // An origin without its scheme, which the server refuses when it is built, is named too.
    expect(
      await initError(
        base({
          plugins: [withRoute],
          options: { logger: silentLogger, server: { allowedOrigins: ['chat.example.com'] } },
        }),
      ),
    ).toContain('options.server.allowedOrigins.0: must be an origin of the form scheme://host');
  });

  it('names a defaultProviders entry that points at an unknown provider [claim:cap-default-checked] [claim:cfg-default-providers-checked]', async () => {
    const message = await initError(
      base({ options: { logger: silentLogger, defaultProviders: { 'text-generation': 'ghost' } } }),
    );
    expect(message).toContain('options.defaultProviders["text-generation"]');
    expect(message).toContain('"ghost"');
  });

  it('reports a defaultProviders entry whose provider does not offer the capability as WEFT_INVALID_CONFIG, its line ending with WEFT_CAPABILITY_UNAVAILABLE [claim:errors-capability-default-config] [claim:cfg-default-providers-checked]', async () => {
    const message = await initError(
      base({
        models: [
          new ScriptedModelProvider(),
          new TestModelProvider('sentiment-only', {
            capabilities: [sentimentOnly],
            descriptors: [sentimentCapability],
          }),
        ],
        options: {
          logger: silentLogger,
          defaultProviders: { 'text-generation': 'sentiment-only' },
        },
      }),
    );
    const line = message.split('\n').find((entry) => entry.includes('options.defaultProviders'));
    expect(line).toMatch(/^- options\.defaultProviders\["text-generation"\]: .*"sentiment-only"/);
    expect(line).toMatch(/\[WEFT_CAPABILITY_UNAVAILABLE\]$/);
  });

  it('refuses a defaultProviders entry whose provider offers the capability only through an alias [claim:cfg-default-providers-checked]', async () => {
    // The scripted provider serves "chat" through the alias group, yet cannot be its default.
    const aliased = base({ capabilityAliases: [['text-generation', 'chat']] });
    await expect(Runtime.init(aliased)).resolves.toBeInstanceOf(Runtime);
    const message = await initError({
      ...aliased,
      options: { logger: silentLogger, defaultProviders: { chat: 'scripted' } },
    });
    expect(message).toMatch(
      /- options\.defaultProviders\["chat"\]: .*"scripted" does not offer capability "chat"/,
    );
  });

  it('names the plugin whose template does not parse [claim:plugin-registration-all-problems] [claim:plugin-templates-compiled] [claim:philo-init-one-error] [claim:liq-plugin-templates] [claim:liq-compile-on-register]', async () => {
    const plugin = new TestPlugin('poet', { templates: { verse: 'Roses {% if %}' } });
    const message = await initError(base({ plugins: [plugin] }));
    expect(message).toContain(
      'plugin "poet": PromptRegistry: template "poet/verse" does not parse',
    );
  });

  it('names a plugin whose templates are a text or a list, not an object of templates by name, beside its other problems [claim:philo-init-one-error]', async () => {
    // From JavaScript: a text would otherwise register one template per character, named `0`, `1`...
    const texted = new TestPlugin('poet', { templates: 'Roses {{ colour }}' as never });
    const listed = new TestPlugin('bard', {
      templates: ['Roses {{ colour }}'] as never,
      executors: [recordingExecutor('sing', undefined, '')],
    });
    const message = await initError(base({ plugins: [texted, listed] }));
    expect(message).toContain(
      `plugin "poet": templates must be an object of templates by name, such as { reply: 'Answer {{ message }}' } (got string)`,
    );
    expect(message).toContain('plugin "bard": templates must be an object of templates by name');
    expect(message).toContain('(got an array)');
    expect(message).toContain('plugin "bard": executor "sing" needs a description');
    // Nothing of the text or the list was compiled as a template of its own.
    expect(message).not.toContain('"poet/0"');
    expect(message).not.toContain('"bard/0"');
    expect(message.split('\n')).toHaveLength(4);
  });

  it('lists the templates that do not parse of a plugin that has other problems too, even one whose id is taken [claim:plugin-registration-all-problems] [claim:philo-init-one-error]', async () => {
    const undescribed = { ...recordingExecutor('save'), description: '' };
    const message = await initError(
      base({
        plugins: [
          echoPlugin({ templates: { greeting: 'Hello {{ name }}' } }),
          new TestPlugin('poet', {
            executors: [undescribed],
            templates: { verse: 'Roses {% if %}', fine: 'A {{ word }}' },
          }),
          echoPlugin({ templates: { greeting: 'Hello {% for %}' } }),
          new TestPlugin('Bad Id', { templates: { broken: 'Oops {% unless %}' } }),
        ],
      }),
    );
    expect(message).toContain('plugin "poet": executor "save" needs a description');
    expect(message).toContain(
      'plugin "poet": PromptRegistry: template "poet/verse" does not parse',
    );
    expect(message).toContain('plugin "echo": another plugin already has this id');
    expect(message).toContain(
      'plugin "echo": PromptRegistry: template "echo/greeting" does not parse',
    );
    expect(message).toContain('plugin "Bad Id": id must be lower-case letters');
    expect(message).toContain(
      'plugin "Bad Id": PromptRegistry: template "plugin/broken" does not parse',
    );
    // The valid templates add nothing, and the first echo's is not called a duplicate.
    expect(message).not.toContain('fine');
    expect(message).not.toContain('already registered');
    expect(message.split('\n- ')).toHaveLength(7);
  });

  it('checks plugins and capabilities once models and plugins have their shape, listing the shape and option problems first [claim:philo-init-shape-first] [claim:gs-init-models-first] [claim:philo-init-shape-first-later] [claim:cfg-init-shape-first] [claim:core-readme-init-shape-first]', async () => {
    const undescribed = { ...recordingExecutor('save'), description: '' };
    const poet = new TestPlugin('poet', {
      executors: [undescribed],
      templates: { verse: 'Roses {% if %}' },
      requiredCapabilities: ['image-caption'],
    });
    // The options that name a provider or plugin are checked with the plugins.
    const naming = {
      defaultProviders: { 'text-generation': 'ghost' },
      bulkhead: { limits: { 'plugin:ghost': 1 } },
    };
    // Without a logger the environment is read, and its problems are listed with the shape's.
    vi.stubEnv('WEFT_LOG_LEVEL', 'verbose');
    let shapeless: string;
    try {
      // The configuration's other fields are checked with the shape too.
      shapeless = await initError({
        ...base({ models: [], plugins: [poet], memory: {} as never }),
        memmory: 1,
        options: { maxSteps: 0, ...naming },
      } as RuntimeConfig);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(
      shapeless
        .split('\n- ')
        .slice(1)
        .map((line) => line.split(':')[0]),
    ).toEqual(['memmory', 'models', 'memory', 'options.maxSteps', 'WEFT_LOG_LEVEL']);
    // The other ways models, plugins or alias groups lack their shape defer the plugins too.
    const noId = new TestModelProvider('');
    const listless = new TestModelProvider('listless', { capabilities: 'none' as never });
    const holey = new TestModelProvider('holey', {
      capabilities: [sentimentOnly, null] as never,
      descriptors: [sentimentCapability],
    });
    const undescribedList = new TestModelProvider('undescribed', { descriptors: 5 as never });
    const untransformed = new TestModelProvider('untransformed', { transforms: 'none' as never });
    const misshapen: [string, Partial<RuntimeConfig>][] = [
      [
        'model "undescribed": descriptors must be an array, got number',
        { models: [new ScriptedModelProvider(), undescribedList], plugins: [poet] },
      ],
      [
        'model "untransformed": transforms must be an array, got string',
        { models: [new ScriptedModelProvider(), untransformed], plugins: [poet] },
      ],
      [
        'two providers share this id',
        { models: [new ScriptedModelProvider(), new ScriptedModelProvider()], plugins: [poet] },
      ],
      [
        'models[1]: the provider has no id',
        { models: [new ScriptedModelProvider(), noId], plugins: [poet] },
      ],
      [
        'model "listless": capabilities must be an array',
        { models: [new ScriptedModelProvider(), listless], plugins: [poet] },
      ],
      [
        'model "holey": capabilities[1] must be an object with an id and a run function, got null',
        { models: [new ScriptedModelProvider(), holey], plugins: [poet] },
      ],
      ['plugins: expected an array of plugins', { plugins: poet as never }],
      ['plugins[1]: expected a Plugin instance', { plugins: [poet, {} as never] }],
      // A provider has init and shutdown too, but no executors or triggers: no plugin either.
      [
        'plugins[1]: expected a Plugin instance, got an instance of InMemoryMemoryProvider',
        { plugins: [poet, new InMemoryMemoryProvider() as never] },
      ],
      [
        'capabilityAliases: expected an array',
        { plugins: [poet], capabilityAliases: 'chat' as never },
      ],
    ];
    for (const [problem, overrides] of misshapen) {
      const message = await initError(base(overrides));
      expect(message, problem).toContain(problem);
      expect(message, problem).not.toContain('plugin "poet"');
    }
    // A list of alias groups whose group is wrong has its shape: the plugins are checked beside it.
    const groupless = await initError(
      base({ plugins: [poet], capabilityAliases: [null as never] }),
    );
    expect(groupless).toContain('capabilityAliases: CapabilityRegistry: alias group null');
    expect(groupless).toContain('plugin "poet": executor "save" needs a description');
    const shaped = await initError(base({ plugins: [poet], options: naming }));
    expect(shaped).toContain('options.defaultProviders["text-generation"]');
    expect(shaped).toContain('options.bulkhead.limits["plugin:ghost"]');
    expect(shaped).toContain('plugin "poet": executor "save" needs a description');
    expect(shaped).toContain('plugin "poet": PromptRegistry: template "poet/verse" does not parse');
    expect(shaped).toContain('plugin "poet": requires capability "image-caption"');
  });

  it('names an alias group of one id or a repeated id, and a second transform for one pair [claim:tr-errors-groups]', async () => {
    const transform = {
      from: 'chat',
      to: 'text-generation',
      input: (value: unknown) => value,
      output: (value: unknown) => value,
    };
    const message = await initError(
      base({
        capabilityAliases: [['chat', 'text-generation'], ['solo'], ['chat', 'chat']],
        models: [
          new ScriptedModelProvider(),
          new TestModelProvider('first', { transforms: [transform] }),
          new TestModelProvider('second', { transforms: [{ ...transform }] }),
        ],
      }),
    );
    expect(message).toContain(
      'capabilityAliases: CapabilityRegistry: alias group [solo] must list at least two distinct capability ids',
    );
    expect(message).toContain('alias group [chat, chat] must list at least two distinct');
    expect(message).toContain(
      'model "second": CapabilityRegistry: a transform "chat" -> "text-generation" is already registered',
    );
    expect(message).not.toContain('model "first"');
  });

  it('names the provider that offers a capability with no descriptor [claim:cap-undefined-offered]', async () => {
    const provider = new TestModelProvider('mystery', { capabilities: [sentimentOnly] });
    const message = await initError(base({ models: [new ScriptedModelProvider(), provider] }));
    expect(message).toContain(
      'model "mystery": offers capability "sentiment", which is not defined',
    );
  });

  it('starts each listed problem with the path, the variable or the owner at fault [claim:errors-invalid-config-lines] [claim:core-readme-init-checks]', async () => {
    const saved = process.env.WEFT_LOG_LEVEL;
    process.env.WEFT_LOG_LEVEL = 'loud';
    let registries: string;
    try {
      // Options that parse, so that the checks needing them (bulkhead limits) run too; no
      // logger, so that WEFT_LOG_LEVEL is read.
      registries = await initError({
        models: [
          new TestModelProvider('sentiment-only', {
            capabilities: [sentimentOnly],
            descriptors: [sentimentCapability],
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [
          new TestPlugin('first', { triggers: [chatRoute('a')] }),
          new TestPlugin('second', { triggers: [chatRoute('b')] }),
          new TestPlugin('poet', { templates: { verse: 'Roses {% if %}' } }),
          new TestPlugin('vision', { requiredCapabilities: ['image-caption'] }),
          new TestPlugin('first'),
        ],
        options: { bulkhead: { limits: { 'plugin:nowhere': 1 } } },
      });
    } finally {
      if (saved === undefined) delete process.env.WEFT_LOG_LEVEL;
      else process.env.WEFT_LOG_LEVEL = saved;
    }
    const options = await initError(
      base({
        options: {
          logger: silentLogger,
          maxSteps: 0,
          server: { headersTimeout: 20_000, requestTimeout: 10_000 },
          ...({ maxStep: 3 } as object),
        },
        ...({ coordinater: {} } as object),
      }),
    );
    const lines = [...registries.split('\n').slice(1), ...options.split('\n').slice(1)];
    // One of each kind the errors page lists, so a line without its owner would be seen.
    for (const part of [
      'WEFT_LOG_LEVEL',
      'route POST /chat',
      'another plugin already has this id',
      'does not parse',
      'requires capability "image-caption"',
      '"text-generation"',
      'options.bulkhead.limits["plugin:nowhere"]',
      'options.maxSteps',
      'options: Unrecognized key',
      'requestTimeout',
      'coordinater: not a field of the configuration',
    ]) {
      expect(
        lines.some((line) => line.includes(part)),
        part,
      ).toBe(true);
    }
    const owner =
      /^- (options(\.[\w[\]":-]+)*|WEFT_LOG_LEVEL|models(\[\d+\])?|memory|coordinator|plugins(\[\d+\])?|capabilityAliases|model "[^"]+"|plugin "[^"]+"|a plugin|coordinater): /;
    for (const line of lines) expect(line).toMatch(owner);
  });

  it('lists only the malformed list and the options while the model providers are malformed, and the plugins once they are fixed [claim:errors-invalid-config-malformed-lists]', async () => {
    const config = (models: RuntimeConfig['models']): RuntimeConfig =>
      base({
        models,
        plugins: [
          new TestPlugin('first'),
          new TestPlugin('first'),
          new TestPlugin('poet', { templates: { verse: 'Roses {% if %}' } }),
        ],
        options: {
          logger: silentLogger,
          bulkhead: { limits: { 'plugin:nowhere': 1 } },
          ...({ maxStep: 3 } as object),
        },
      });
    // Two providers with one id: the registry checks do not run.
    const malformed = await initError(
      config([new ScriptedModelProvider(), new ScriptedModelProvider()]),
    );
    expect(malformed.split('\n').slice(1)).toEqual([
      '- model "scripted": two providers share this id; give each a unique id',
      '- options: Unrecognized key: "maxStep"',
    ]);
    // No provider at all: the same.
    const empty = await initError(config([]));
    expect(empty.split('\n').slice(1)).toEqual([
      '- models: list at least one model provider (one must offer "text-generation")',
      '- options: Unrecognized key: "maxStep"',
    ]);
    // A bad WEFT_LOG_LEVEL, read when no logger is given, is listed beside them.
    const saved = process.env.WEFT_LOG_LEVEL;
    process.env.WEFT_LOG_LEVEL = 'loud';
    let withLevel: string;
    try {
      withLevel = await initError({
        models: [],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('first'), new TestPlugin('first')],
      });
    } finally {
      if (saved === undefined) delete process.env.WEFT_LOG_LEVEL;
      else process.env.WEFT_LOG_LEVEL = saved;
    }
    expect(
      withLevel
        .split('\n')
        .slice(1)
        .map((line) => line.split(':')[0]),
    ).toEqual(['- models', '- WEFT_LOG_LEVEL']);
    // Once the list is fixed, the plugins' and the limits' problems come out.
    const fixed = await initError(config([new ScriptedModelProvider()]));
    expect(fixed).toContain('plugin "first": another plugin already has this id');
    expect(fixed).toContain('plugin "poet": PromptRegistry: template "poet/verse" does not parse');
    expect(fixed).toContain('options.bulkhead.limits["plugin:nowhere"]');
  });

  it('names the providers and plugins that options name but do not exist, beside a wrong option [claim:philo-init-one-error] [claim:cfg-init-checks-all]', async () => {
    const message = await initError(
      base({
        options: {
          maxSteps: 0,
          defaultProviders: { 'text-generation': 'ghost' },
          bulkhead: { maxWaitMs: -1, limits: { 'plugin:ghost': 1 } },
        },
      }),
    );
    const problems = message.split('\n- ').slice(1);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('options.maxSteps');
    expect(problems[1]).toContain('options.bulkhead.maxWaitMs');
    expect(problems[2]).toMatch(
      /^options\.defaultProviders\["text-generation"\]: .*cannot make "ghost" the default/,
    );
    expect(problems[3]).toMatch(/^options\.bulkhead\.limits\["plugin:ghost"\]: no such dependency/);
  });

  it('names an entry that names a provider or plugin that does not exist beside a wrong value in the same option [claim:cfg-init-checks-all]', async () => {
    const message = await initError(
      base({
        options: {
          defaultProviders: { 'text-generation': 'ghost', embedding: 5 as unknown as string },
          bulkhead: { limits: { 'plugin:ghost': 1, 'model:scripted': 0 } },
        },
      }),
    );
    const problems = message.split('\n- ').slice(1);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^options\.bulkhead\.limits\.model:scripted: /);
    expect(problems[1]).toMatch(/^options\.defaultProviders\.embedding: /);
    expect(problems[2]).toMatch(
      /^options\.defaultProviders\["text-generation"\]: .*cannot make "ghost" the default/,
    );
    expect(problems[3]).toMatch(/^options\.bulkhead\.limits\["plugin:ghost"\]: no such dependency/);
  });

  it('reports every problem in one error, whatever stage finds it [claim:plugin-registration-all-problems] [claim:philo-init-one-error] [claim:gs-init-one-error] [claim:core-readme-init-checks] [claim:tsdoc-runtime-init-one-error] [claim:wp-init-all-problems] [claim:wp-goal-checked] [claim:cfg-init-checks-all]', async () => {
    const message = await initError({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        echoPlugin(),
        echoPlugin(),
        new TestPlugin('vision', { requiredCapabilities: ['image-caption'] }),
        new TestPlugin('notes', { templates: { summary: '{% if %}' } }),
      ],
      options: { logger: silentLogger, maxSteps: 0, maxStep: 5 } as RuntimeConfig['options'],
    });
    expect(message).toContain('options.maxSteps');
    expect(message).toContain('Unrecognized key: "maxStep"');
    expect(message).toContain('plugin "echo": another plugin already has this id');
    expect(message).toContain('plugin "vision": requires capability "image-caption"');
    expect(message).toContain('template "notes/summary" does not parse');
    expect(message.split('\n- ')).toHaveLength(6);
  });
});
