/**
 * The container set-up of a generated project, checked without a container engine (none runs
 * where the tests run): the Dockerfile and compose.yaml are read and held to what the project
 * itself says (its engines, start script, build output, settings and defaults). Following the
 * Dockerfile's steps to a running agent is tests/scaffold/clone.test.ts's job
 * (tests/scaffold/support/image-rehearsal.ts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createProject } from '../src/create-project.js';
import { parseDockerfile } from './support/dockerfile.js';

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

let work = '';
let directory = '';

async function projectFile(file: string): Promise<string> {
  return readFile(path.join(directory, file), 'utf8');
}

// A project inside the repository (a folder .gitignore names), so its modules can be loaded.
beforeAll(async () => {
  work = await mkdtemp(path.join(root, 'packages/create-weft/.variants-check-'));
  directory = path.join(work, 'container-agent');
  await createProject({ directory, model: 'ollama', memory: 'sqlite', source: 'registry' });
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the generated Dockerfile', () => {
  it('builds from a Node.js image the project supports, in every stage', async () => {
    const manifest = JSON.parse(await projectFile('package.json')) as {
      engines: { node: string };
    };
    // The lowest major the range admits: the first of "^20.19.0 || ^22.12.0 || ...".
    const [, minMajor] = /^\^(\d+)\./.exec(manifest.engines.node) ?? [];
    const froms = parseDockerfile(await projectFile('Dockerfile')).filter(
      (instruction) => instruction.keyword === 'FROM',
    );
    expect(froms).toHaveLength(2);
    for (const from of froms) {
      const [, major] = /^node:(\d+)-/.exec(from.args) ?? [];
      expect(Number(major)).toBeGreaterThanOrEqual(Number(minMajor));
    }
  });

  it('runs what npm start runs, from the build output, as an unprivileged user [claim:gs-dockerfile] [claim:gs-scripts] [claim:prod-generated-project-start]', async () => {
    const manifest = JSON.parse(await projectFile('package.json')) as {
      scripts: Record<string, string>;
    };
    const build = JSON.parse(
      (await projectFile('tsconfig.build.json')).replace(/^\s*\/\/.*$/gm, ''),
    ) as { compilerOptions: { rootDir: string; outDir: string } };
    const final = parseDockerfile(await projectFile('Dockerfile')).filter(
      (instruction) => instruction.stage === 1,
    );
    const cmd = JSON.parse(final.find((i) => i.keyword === 'CMD')?.args ?? '[]') as string[];
    // `start` builds first in its own command, not in a `prestart` script, which pnpm before 9
    // and Yarn 2 and later do not run; the image runs what comes after the build.
    const [buildStep, runStep] = manifest.scripts.start?.split(' && ') ?? [];
    expect(buildStep).toBe(manifest.scripts.build);
    expect(manifest.scripts.prestart).toBeUndefined();
    expect(cmd).toEqual(runStep?.split(' '));
    expect(cmd[1]).toBe(`${build.compilerOptions.outDir}/main.js`);
    expect(final.filter((i) => i.keyword === 'COPY').map((i) => i.args)).toEqual([
      '--from=build /app/package.json ./',
      '--from=build /app/node_modules ./node_modules',
      `--from=build /app/${build.compilerOptions.outDir} ./${build.compilerOptions.outDir}`,
    ]);
    expect(final.find((i) => i.keyword === 'USER')?.args).toBe('node');
  });

  it('listens on every interface of the container, on the port it exposes [claim:gs-dockerfile]', async () => {
    const final = parseDockerfile(await projectFile('Dockerfile')).filter(
      (instruction) => instruction.stage === 1,
    );
    const env = Object.fromEntries(
      final.filter((i) => i.keyword === 'ENV').map((i) => i.args.split('=') as [string, string]),
    );
    const { readHost, readPort } = (await import(path.join(directory, 'src/env.ts'))) as {
      readHost: (env: NodeJS.ProcessEnv) => string;
      readPort: (env: NodeJS.ProcessEnv) => number;
    };
    expect(readHost(env)).toBe('0.0.0.0');
    expect(readHost({})).toBe('127.0.0.1');
    expect(String(readPort(env))).toBe(final.find((i) => i.keyword === 'EXPOSE')?.args);
  });

  it('says to stop the container with docker stop -t, longer than the 30 s drain, in the Dockerfile and the README', async () => {
    // -t is the short name of --timeout from Docker 28 and of --time before it: it works on both,
    // where --timeout fails on an older Docker and --time is deprecated on a newer one.
    for (const file of ['Dockerfile', 'README.md']) {
      const text = await projectFile(file);
      const [, seconds] = /`docker stop -t (\d+)[ `]/.exec(text) ?? [];
      expect(Number(seconds), file).toBeGreaterThan(30);
      expect(text, file).not.toMatch(/docker stop --time/);
    }
  });

  it('keeps .env, dependencies, builds and data out of the image [claim:gs-dockerfile]', async () => {
    const ignored = (await projectFile('.dockerignore')).split('\n').filter(Boolean);
    const gitignored = (await projectFile('.gitignore')).split('\n').filter(Boolean);
    expect(ignored).toEqual(expect.arrayContaining(gitignored));
    expect(ignored).toEqual(expect.arrayContaining(['.env', 'node_modules/', 'data/']));
  });

  it('gives the SQLite file a directory the node user may write, where the memory looks', async () => {
    const memorySource = await projectFile('src/memory.ts');
    const [, defaultPath] = /\|\| '([^']+)'/.exec(memorySource) ?? [];
    expect(defaultPath).toBe('data/memory.db');
    const final = parseDockerfile(await projectFile('Dockerfile')).filter((i) => i.stage === 1);
    expect(final.find((i) => i.keyword === 'WORKDIR')?.args).toBe('/app');
    expect(final.map((i) => `${i.keyword} ${i.args}`)).toContain(
      `RUN mkdir ${path.dirname(defaultPath ?? '')} && chown node:node ${path.dirname(defaultPath ?? '')}`,
    );
  });
});

describe('the generated compose.yaml (model ollama)', () => {
  interface Compose {
    services: Record<
      string,
      {
        build?: string;
        image?: string;
        ports?: string[];
        environment?: Record<string, string>;
        volumes?: string[];
        depends_on?: Record<string, { condition: string }>;
        healthcheck?: { test: string[] };
        stop_grace_period?: string;
      }
    >;
    volumes: Record<string, unknown>;
  }

  async function compose(): Promise<Compose> {
    return parseYaml(await projectFile('compose.yaml')) as Compose;
  }

  it('builds the agent from the Dockerfile and publishes the port it exposes', async () => {
    const { services } = await compose();
    const expose = parseDockerfile(await projectFile('Dockerfile')).find(
      (i) => i.keyword === 'EXPOSE',
    )?.args;
    expect(services.agent?.build).toBe('.');
    expect(services.agent?.ports).toEqual([`${expose}:${expose}`]);
  });

  it("points the agent at the Ollama service, with the model the project's default names [claim:gs-compose]", async () => {
    const { services } = await compose();
    const environment = services.agent?.environment ?? {};
    const url = new URL(environment.OLLAMA_BASE_URL ?? '');
    expect(Object.keys(services)).toContain(url.hostname);
    expect(services[url.hostname]?.image).toBe('ollama/ollama');
    expect(url.port).toBe('11434');
    const { createModel } = (await import(path.join(directory, 'src/model.ts'))) as {
      createModel: (env: NodeJS.ProcessEnv) => ServedModel;
    };
    const configured = createModel(environment);
    expect(configured.baseUrl).toBe(environment.OLLAMA_BASE_URL);
    expect(configured.model).toBe(createModel({}).model);
  });

  it("gives the agent the stop_grace_period the README names, longer than the 30 s drain, so that Compose's 10 s default does not cut it short", async () => {
    const { services } = await compose();
    const readme = await projectFile('README.md');
    const [, named] = /`stop_grace_period: (\d+)s`/.exec(readme) ?? [];
    expect(Number(named)).toBeGreaterThan(30);
    expect(services.agent?.stop_grace_period).toBe(`${named}s`);
  });

  it('starts the agent once Ollama answers, and keeps memories and models in volumes', async () => {
    const { services, volumes } = await compose();
    expect(services.agent?.depends_on).toEqual({ ollama: { condition: 'service_healthy' } });
    expect(services.ollama?.healthcheck?.test).toEqual(['CMD', 'ollama', 'list']);
    const named = [...(services.agent?.volumes ?? []), ...(services.ollama?.volumes ?? [])].map(
      (volume) => volume.split(':'),
    );
    expect(named).toEqual([
      ['agent-data', '/app/data'],
      ['ollama-models', '/root/.ollama'],
    ]);
    expect(Object.keys(volumes).sort()).toEqual(['agent-data', 'ollama-models']);
  });
});
