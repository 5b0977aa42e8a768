import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_DIR, SHARED_FILES, TEMPLATE_DIR } from '../scripts/agent-template-files.js';
import { createRealModel } from '../../../examples/getting-started/real-model.js';
import { createProject } from '../src/create-project.js';
import { OTHER_DEPENDENCIES } from '../src/weft-packages.js';
import { DEFAULT_LOG_LEVEL } from '../../core/src/util/environment.js';
import { optionsSchema } from '../../core/src/runtime/options-schema.js';

const root = path.resolve(__dirname, '../../..');

/**
 * What the tests read of the model a generated src/model.ts creates: the public fields of an
 * OpenAIModelProvider (named by shape, since this package does not depend on the providers).
 */
interface ServedModel {
  id: string;
  baseUrl: string;
  model: string;
}

type CreateModel = (env: NodeJS.ProcessEnv) => ServedModel;
let work = '';
const createModelOf: Partial<Record<'ollama' | 'openai', CreateModel>> = {};

// Generated projects inside the repository (a folder .gitignore names), where `@weft/*`
// resolve, so their src/model.ts can be loaded as the project would load it.
beforeAll(async () => {
  work = await mkdtemp(path.join(root, 'packages/create-weft/.variants-check-'));
  for (const model of ['ollama', 'openai'] as const) {
    const directory = path.join(work, model);
    await createProject({ directory, model, memory: 'memory', source: 'registry' });
    const loaded = (await import(path.join(directory, 'src/model.ts'))) as {
      createModel: CreateModel;
    };
    createModelOf[model] = loaded.createModel;
  }
  await createProject({
    directory: path.join(work, 'scripted'),
    model: 'scripted',
    memory: 'memory',
    source: 'registry',
  });
});

function requireModel(model: 'ollama' | 'openai'): CreateModel {
  const create = createModelOf[model];
  if (!create) throw new Error(`the ${model} project's src/model.ts was not loaded`);
  return create;
}

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

// Issue 21: the project `create-weft` writes and examples/getting-started teach one agent.
describe('the generated agent is the getting-started example', () => {
  it.each(SHARED_FILES)(
    'templates/base/src/%s is a copy of the example [claim:gs-template-copies]',
    async (file) => {
      const example = await readFile(path.join(root, EXAMPLE_DIR, file), 'utf8');
      const template = await readFile(path.join(root, TEMPLATE_DIR, file), 'utf8');
      expect(
        template === example,
        `${TEMPLATE_DIR}/${file} differs from ${EXAMPLE_DIR}/${file}; edit the example, then run npm run generate:agent-template -w create-weft`,
      ).toBe(true);
    },
  );

  it('uses the same Ollama server and model by default', () => {
    const example = createRealModel({});
    const template = requireModel('ollama')({});
    expect({ id: template.id, baseUrl: template.baseUrl, model: template.model }).toEqual({
      id: example.id,
      baseUrl: example.baseUrl,
      model: example.model,
    });
  });

  it('uses the same OpenAI server and model by default', () => {
    const example = createRealModel({ OPENAI_API_KEY: 'sk-test' });
    const template = requireModel('openai')({ OPENAI_API_KEY: 'sk-test' });
    expect({ baseUrl: template.baseUrl, model: template.model }).toEqual({
      baseUrl: example.baseUrl,
      model: example.model,
    });
  });

  it("asks for the same pino, express and cors as @weft/core's, so one copy is installed [claim:install-same-major] [claim:node-subpath-peers] [claim:install-express-cors]", async () => {
    const core = JSON.parse(
      await readFile(path.join(root, 'packages/core/package.json'), 'utf8'),
    ) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
    expect(OTHER_DEPENDENCIES).toEqual({
      pino: core.dependencies.pino,
      // The template's route trigger needs the HTTP server, whose peers these are.
      express: core.peerDependencies.express,
      cors: core.peerDependencies.cors,
    });
  });
});

describe("the agent's comment on Ctrl+C", () => {
  it("gives the drain's limit as the runtime's default shutdownTimeoutMs, and says npm run dev's watcher kills the agent 5 s after Ctrl+C (dev-script.test.ts shows it)", async () => {
    const agent = await readFile(path.join(root, EXAMPLE_DIR, 'agent.ts'), 'utf8');
    const comments = [...agent.matchAll(/^\s*\/\/ ?(.*)$/gm)].map((line) => line[1]).join(' ');
    const drain =
      /Ctrl\+C and `kill` stop the runtime gracefully: tasks get up to (\d+) s \(`shutdownTimeoutMs`\) to finish;/.exec(
        comments,
      );
    expect(Number(drain?.[1]) * 1000).toBe(optionsSchema.parse({}).shutdownTimeoutMs);
    expect(comments).toContain("under `npm run dev`, tsx's watcher kills the agent after 5 s.");
  });
});

// Issue 39: "Add a plugin to your project" (docs/getting-started.md) shows these files; a user
// makes them by adding lines to the generated ones, so they must differ by those lines only.
describe('the add-a-plugin example is the generated agent plus the lines the page adds', () => {
  const added = path.join(root, 'examples/add-a-plugin/src');

  it('src/agent.ts adds the import of ClockPlugin and the plugin in plugins: [claim:gs-add-plugin-followed]', async () => {
    const before = await readFile(path.join(root, TEMPLATE_DIR, 'agent.ts'), 'utf8');
    const after = await readFile(path.join(added, 'agent.ts'), 'utf8');
    expect(after).toContain("import { ClockPlugin } from './clock-plugin.js';");
    expect(after).toContain('plugins: [new AssistantPlugin(), new ClockPlugin()],');
    const undone = after
      .replace("import { ClockPlugin } from './clock-plugin.js';\n", '')
      .replace(', new ClockPlugin()]', ']');
    expect(undone).toBe(before);
  });

  it('src/scripted-model.ts adds one route to ROUTES [claim:gs-add-plugin-followed]', async () => {
    const before = await readFile(path.join(root, TEMPLATE_DIR, 'scripted-model.ts'), 'utf8');
    const after = await readFile(path.join(added, 'scripted-model.ts'), 'utf8');
    const route = "  { pattern: /\\btime\\b/i, pluginId: 'clock', action: 'now' },\n";
    expect(after).toContain(route);
    expect(after.replace(`= [\n${route}];`, '= [];')).toBe(before);
  });
});

/** What the tests use of a generated src/agent.ts, src/model.ts and src/memory.ts. */
interface ProjectModules {
  createAgent: (options: {
    model: unknown;
    memory: unknown;
    port: number;
    checkHealthOnStart?: boolean;
  }) => Promise<{
    start(): Promise<void>;
    stop(): Promise<void>;
    server: { url: string };
    logger: { level: string };
  }>;
  createModel: (env: NodeJS.ProcessEnv) => unknown;
  createMemory: (env: NodeJS.ProcessEnv) => unknown;
}

describe("the project's tests", () => {
  it.each(['ollama', 'openai', 'scripted'] as const)(
    'with --model %s, test/model.test.ts tests the createModel of src/model.ts [claim:gs-project-model-test]',
    async (model) => {
      const test = await readFile(path.join(work, model, 'test/model.test.ts'), 'utf8');
      expect(test).toMatch(/^import \{ createModel \} from '\.\.\/src\/model\.js';$/m);
      expect(test).toMatch(/^\s+it\(/m);
      expect(test).toMatch(/createModel\(/);
    },
  );
});

describe("the project's .env.example", () => {
  /** Each `NAME=value` line, commented out or not. */
  async function listed(directory: string): Promise<Map<string, string>> {
    const text = await readFile(path.join(directory, '.env.example'), 'utf8');
    return new Map(
      [...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [
        name as string,
        value as string,
      ]),
    );
  }

  it('gives the default of each variable that has one, as the code applies it [claim:gs-env-example]', async () => {
    const { DEFAULT_PORT } = (await import(path.join(work, 'scripted', 'src/port.ts'))) as {
      DEFAULT_PORT: number;
    };
    const { readHost } = (await import(path.join(work, 'scripted', 'src/env.ts'))) as {
      readHost: (env: NodeJS.ProcessEnv) => string;
    };
    for (const model of ['ollama', 'openai', 'scripted'] as const) {
      const values = await listed(path.join(work, model));
      expect(values.get('PORT')).toBe(String(DEFAULT_PORT));
      expect(values.get('WEFT_LOG_LEVEL')).toBe(DEFAULT_LOG_LEVEL);
      // HOST's line shows the value a container sets; its comment gives the default.
      const text = await readFile(path.join(work, model, '.env.example'), 'utf8');
      expect(text).toContain(`${readHost({})} by default`);
    }
    const openai = requireModel('openai')({ OPENAI_API_KEY: 'sk-test' });
    const openaiValues = await listed(path.join(work, 'openai'));
    expect(openaiValues.get('OPENAI_BASE_URL')).toBe(openai.baseUrl);
    expect(openaiValues.get('OPENAI_MODEL')).toBe(openai.model);
    const ollama = requireModel('ollama')({});
    const ollamaValues = await listed(path.join(work, 'ollama'));
    expect(ollamaValues.get('OLLAMA_BASE_URL')).toBe(ollama.baseUrl);
    expect(ollamaValues.get('OLLAMA_MODEL')).toBe(ollama.model);
    // Loading the SQLite memory would create its folder: its default is read from the source.
    const sqlite = path.join(work, 'sqlite');
    await createProject({
      directory: sqlite,
      model: 'scripted',
      memory: 'sqlite',
      source: 'registry',
    });
    const memoryPath = (await listed(sqlite)).get('WEFT_MEMORY_PATH');
    expect(memoryPath).toBeTruthy();
    expect(await readFile(path.join(sqlite, 'src/memory.ts'), 'utf8')).toContain(
      `env.WEFT_MEMORY_PATH?.trim() || '${memoryPath}'`,
    );
  });
});

describe('the project made with the defaults (--model scripted --memory memory)', () => {
  /** The default project's agent, model and memory modules, loaded from its src/. */
  async function scriptedModules(): Promise<Required<ProjectModules>> {
    const load = async (file: string) =>
      (await import(path.join(work, 'scripted', 'src', file))) as Partial<ProjectModules>;
    const { createAgent } = await load('agent.ts');
    const { createModel } = await load('model.ts');
    const { createMemory } = await load('memory.ts');
    if (!createAgent || !createModel || !createMemory) throw new Error('a module is missing');
    return { createAgent, createModel, createMemory };
  }

  it('has src/port.ts with the default port 8787 [claim:gs-port-file]', async () => {
    const port = await readFile(path.join(work, 'scripted', 'src/port.ts'), 'utf8');
    expect(port).toMatch(/^export const DEFAULT_PORT = 8787;$/m);
  });

  it('starts and answers with no setting at all: an empty environment [claim:gs-scripted-no-settings]', async () => {
    const { createAgent, createModel, createMemory } = await scriptedModules();
    const runtime = await createAgent({
      model: createModel({}),
      memory: createMemory({}),
      port: 0,
      // As src/main.ts starts it: a provider that needed a server or a key would fail here.
      checkHealthOnStart: true,
    });
    await runtime.start();
    try {
      const response = await fetch(`${runtime.server.url}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'ada', text: 'Hello' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { reply: string }).reply).toBe(
        'You said "Hello". Your Weft agent is listening.',
      );
    } finally {
      await runtime.stop();
    }
  });
  it('logs at info by default, and only warnings and worse with WEFT_LOG_LEVEL=warn [claim:gs-json-logs]', async () => {
    const { createAgent, createModel, createMemory } = await scriptedModules();
    const levelWith = async (level: string | undefined): Promise<string> => {
      vi.stubEnv('WEFT_LOG_LEVEL', level);
      try {
        // As src/main.ts builds it: no logger, so the runtime makes its own from the variable.
        const runtime = await createAgent({
          model: createModel({}),
          memory: createMemory({}),
          port: 0,
        });
        return runtime.logger.level;
      } finally {
        vi.unstubAllEnvs();
      }
    };
    expect(await levelWith(undefined)).toBe('info');
    expect(await levelWith('warn')).toBe('warn');
  });
});

describe("the project's settings from the environment", () => {
  /** What a function of the project threw: the agent's main prints a SetupError in one line. */
  function refusal(read: () => unknown): Error {
    try {
      read();
    } catch (error) {
      if (error instanceof Error) return error;
    }
    throw new Error('expected the setting to be refused');
  }

  it('takes PORT as a whole number from 0 to 65535 and refuses any other value, naming it [claim:cfg-template-port-checked]', async () => {
    const { readPort } = (await import(path.join(root, TEMPLATE_DIR, 'env.ts'))) as {
      readPort: (env: NodeJS.ProcessEnv) => number;
    };
    expect([
      readPort({}),
      readPort({ PORT: ' ' }),
      readPort({ PORT: ' 0 ' }),
      readPort({ PORT: '65535' }),
    ]).toEqual([8787, 8787, 0, 65_535]);
    // Number() reads the first three as 80, 1000 and 80: a port number is digits only.
    for (const PORT of ['0x50', '1e3', '80.0', '-1', '65536', 'eighty']) {
      const error = refusal(() => readPort({ PORT }));
      expect(error.name).toBe('SetupError');
      expect(error.message).toBe(
        `PORT: "${PORT}" is not a port number; set a whole number from 0 to 65535`,
      );
    }
  });

  it('refuses a HOST with a space inside, naming it [claim:cfg-template-host-checked]', async () => {
    const { readHost } = (await import(path.join(root, TEMPLATE_DIR, 'env.ts'))) as {
      readHost: (env: NodeJS.ProcessEnv) => string;
    };
    expect([readHost({}), readHost({ HOST: '  ' }), readHost({ HOST: ' 0.0.0.0 ' })]).toEqual([
      '127.0.0.1',
      '127.0.0.1',
      '0.0.0.0',
    ]);
    const error = refusal(() => readHost({ HOST: '0.0.0.0 ::' }));
    expect(error.name).toBe('SetupError');
    expect(error.message).toMatch(/^HOST: "0\.0\.0\.0 ::" is not an address/);
  });

  it('refuses to make the OpenAI model without OPENAI_API_KEY, naming it [claim:cfg-template-openai-key-required]', () => {
    for (const OPENAI_API_KEY of [undefined, '', '  ']) {
      const error = refusal(() => requireModel('openai')({ OPENAI_API_KEY }));
      expect(error.name).toBe('SetupError');
      expect(error.message).toMatch(/^OPENAI_API_KEY is not set;/);
    }
  });

  it('turns a value the model provider refuses into a SetupError naming the variables, not a stack trace naming an option [claim:cfg-template-model-settings-checked] [claim:cfg-template-ollama-settings-checked]', () => {
    const cases = [
      {
        model: 'openai',
        env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'api.openai.com/v1' },
        names: 'OPENAI_BASE_URL, OPENAI_API_KEY or OPENAI_MODEL',
        option: 'baseUrl',
      },
      {
        model: 'openai',
        env: { OPENAI_API_KEY: 'sk-\u20ac' },
        names: 'OPENAI_BASE_URL, OPENAI_API_KEY or OPENAI_MODEL',
        option: 'apiKey',
      },
      {
        model: 'ollama',
        env: { OLLAMA_BASE_URL: 'localhost:11434/v1' },
        names: 'OLLAMA_BASE_URL, OLLAMA_API_KEY or OLLAMA_MODEL',
        option: 'baseUrl',
      },
    ] as const;
    for (const { model, env, names, option } of cases) {
      const error = refusal(() => requireModel(model)(env));
      expect(error.name).toBe('SetupError');
      expect(error.message).toContain(names);
      expect(error.message).toContain(`option "${option}"`);
      expect(error.message).toContain('[WEFT_OPENAI_INVALID_OPTIONS]');
    }
  });
});

describe("the project's .env loading", () => {
  it("reads .env with Node.js's parser, and a variable set in the shell wins [claim:gs-dotenv] [claim:gs-shell-wins]", async () => {
    const { loadEnvFile } = (await import(path.join(root, TEMPLATE_DIR, 'env.ts'))) as {
      loadEnvFile: (file?: string) => void;
    };
    const directory = await mkdtemp(path.join(tmpdir(), 'weft-dotenv-'));
    const names = ['WEFT_DOTENV_CHECK_FILE', 'WEFT_DOTENV_CHECK_SHELL'] as const;
    try {
      const file = path.join(directory, '.env');
      await writeFile(file, `${names[0]}=from-file\n${names[1]}=from-file\n`);
      process.env[names[1]] = 'from-shell';
      loadEnvFile(file);
      expect([process.env[names[0]], process.env[names[1]]]).toEqual(['from-file', 'from-shell']);
      // No .env at all is not an error: the defaults apply.
      expect(() => loadEnvFile(path.join(directory, 'missing.env'))).not.toThrow();
    } finally {
      for (const name of names) delete process.env[name];
      await rm(directory, { recursive: true, force: true });
    }
  });
});
