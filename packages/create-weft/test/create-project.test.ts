import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MEMORY_CHOICES, MODEL_CHOICES } from '../src/choices.js';
import { createProject } from '../src/create-project.js';
import { CreateWeftError } from '../src/errors.js';
import { assertProjectName } from '../src/project-name.js';
import { containerImageName, defaultAgentPort } from '../src/templates.js';
import { ownVersion } from '../src/weft-packages.js';

/** An image name by the grammar of Docker references, without a registry host or a tag. */
const DOCKER_NAME =
  /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;

describe('containerImageName', () => {
  it.each([
    ['my-agent', 'my-agent'],
    ['@acme/support-bot', 'acme/support-bot'],
    ['agent.v2', 'agent.v2'],
    ['my__agent', 'my__agent'],
    ['-agent-', 'agent'],
    ['a..b', 'a-b'],
    ['a___b', 'a-b'],
    ['@acme/-bot.', 'acme/bot'],
    ['---', 'agent'],
  ])(
    'makes the npm name %j the image name %j, which Docker accepts [claim:create-weft-readme-image-name]',
    (name, image) => {
      expect(containerImageName(name)).toBe(image);
      expect(image).toMatch(DOCKER_NAME);
    },
  );

  it("gives the images the README's examples name, for names a project can have [claim:create-weft-readme-image-name]", async () => {
    const readme = await readFile(path.join(__dirname, '../README.md'), 'utf8');
    const sentence =
      /made into one\s+Docker accepts:([\s\S]*?)<!-- claim: create-weft-readme-image-name -->/.exec(
        readme,
      )?.[1] ?? '';
    const examples = [...sentence.matchAll(/`([^`]+)` becomes `([^`]+)`/g)].map(
      ([, name, image]) => [name, image],
    );
    expect(examples).toHaveLength(3);
    for (const [name, image] of examples) {
      // An example the creator refuses (WEFT_CREATE_INVALID_NAME) would show nothing it does.
      expect(() => assertProjectName(name as string), name).not.toThrow();
      expect(containerImageName(name as string)).toBe(image);
    }
  });
});

describe('createProject', () => {
  let work = '';
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'create-weft-test-'));
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** The workspaces of the fake clone that the tests which pack from a clone write. */
  const CLONE_PACKAGES = ['core', 'testing'] as const;

  /**
   * Writes a fake clone of the repository at `<work>/fake-clone`: a root package.json naming
   * packages/core and packages/testing as its workspaces, and in each of them a package.json for
   * `@weft/<name>` with `fields` besides; gives the clone's folder.
   */
  async function writeFakeClone(fields: Record<string, unknown>): Promise<string> {
    const root = path.join(work, 'fake-clone');
    for (const name of CLONE_PACKAGES) {
      const dir = path.join(root, 'packages', name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: `@weft/${name}`, ...fields }),
      );
    }
    await writeFile(
      path.join(root, 'package.json'),
      JSON.stringify({
        name: 'fake',
        private: true,
        workspaces: CLONE_PACKAGES.map((name) => `packages/${name}`),
      }),
    );
    return root;
  }

  const combinations = MODEL_CHOICES.flatMap((model) =>
    MEMORY_CHOICES.map((memory) => [model, memory] as const),
  );

  it.each(combinations)(
    'writes a complete project for --model %s --memory %s [claim:gs-esm] [claim:gs-files] [claim:gs-compose] [claim:create-weft-readme-what] [claim:create-weft-readme-name-flag] [claim:tsdoc-cw-model-choices] [claim:tsdoc-cw-memory-choices] [claim:stability-generated-caret]',
    async (model, memory) => {
      const directory = path.join(work, 'my-agent');
      const project = await createProject({ directory, model, memory, source: 'registry' });
      expect(project).toMatchObject({ directory, name: 'my-agent', source: 'registry' });
      expect(project.files).toEqual(
        [
          '.dockerignore',
          '.env.example',
          '.gitignore',
          'Dockerfile',
          ...(model === 'ollama' ? ['compose.yaml'] : []),
          'README.md',
          'package.json',
          'src/agent.ts',
          'src/assistant-plugin.ts',
          'src/env.ts',
          'src/main.ts',
          'src/memory.ts',
          'src/model.ts',
          'src/port.ts',
          'src/scripted-model.ts',
          'test/agent.test.ts',
          'test/model.test.ts',
          'tsconfig.build.json',
          'tsconfig.json',
          'vitest.config.ts',
        ].sort(),
      );
      for (const file of project.files) {
        expect(await readFile(path.join(directory, file), 'utf8')).not.toMatch(/\{\{\w+\}\}/);
      }
      const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
        name: string;
        type: string;
        scripts: Record<string, string>;
        dependencies: Record<string, string>;
        allowScripts: Record<string, boolean>;
      };
      expect(manifest.name).toBe('my-agent');
      // npm 12 runs only allowed install scripts: SQLite's driver must build its module.
      expect(manifest.allowScripts).toEqual({
        ...(memory === 'sqlite' ? { 'better-sqlite3': true } : {}),
        esbuild: false,
      });
      expect(manifest.type).toBe('module');
      expect(Object.keys(manifest.scripts)).toEqual(
        expect.arrayContaining(['dev', 'start', 'test', 'build', 'typecheck']),
      );
      const range = `^${ownVersion()}`;
      expect(manifest.dependencies).toEqual({
        pino: '^9.7.0',
        // The assistant plugin's route trigger needs the HTTP server's peers.
        express: '^5.1.0',
        cors: '^2.8.5',
        '@weft/core': range,
        '@weft/testing': range,
        ...(model === 'scripted' ? {} : { '@weft/model-openai': range }),
        ...(memory === 'sqlite' ? { '@weft/memory-sqlite': range } : {}),
      });
      const env = await readFile(path.join(directory, '.env.example'), 'utf8');
      if (model === 'openai') expect(env).toMatch(/^OPENAI_API_KEY=$/m);
      if (model === 'ollama')
        expect(env).toMatch(/^OLLAMA_BASE_URL=http:\/\/127\.0\.0\.1:11434\/v1$/m);
      expect(await readFile(path.join(directory, '.gitignore'), 'utf8')).toMatch(/^\.env$/m);
    },
  );

  // The command's last line says "README.md explains every file".
  it.each(combinations)(
    "--model %s --memory %s: README.md names every file of the project, as the page's table does",
    async (model, memory) => {
      const directory = path.join(work, 'readme-check');
      const project = await createProject({
        directory,
        model,
        memory,
        source: 'registry',
        packageManager: 'pnpm',
      });
      const readme = await readFile(path.join(directory, 'README.md'), 'utf8');
      const named = new Set(
        project.files
          .filter((file) => file !== 'README.md')
          .map((file) => (file.startsWith('test/') ? 'test/' : file)),
      );
      expect(named).toContain('src/env.ts');
      expect(named).toContain('pnpm-workspace.yaml');
      for (const file of named) expect(readme, file).toContain(`\`${file}\``);
    },
  );

  // The README said every model was "read from the environment"; the scripted one reads nothing.
  it.each(MODEL_CHOICES)(
    "--model %s: README.md's row for src/model.ts points to .env.example, which lists model variables only when the model reads some",
    async (model) => {
      const directory = path.join(work, 'model-row');
      await createProject({ directory, model, memory: 'memory', source: 'registry' });
      const source = await readFile(path.join(directory, 'src/model.ts'), 'utf8');
      const readme = await readFile(path.join(directory, 'README.md'), 'utf8');
      const row = readme.split('\n').find((line) => line.startsWith('| `src/model.ts`'));
      expect(row).toBeDefined();
      expect(row).not.toMatch(/read from the environment/);
      expect(row).toContain('.env.example');
      const reads = /\benv\??\.[A-Z]/.test(source);
      expect(reads).toBe(model !== 'scripted');
      const example = await readFile(path.join(directory, '.env.example'), 'utf8');
      expect(/^(?:# )?[A-Z][A-Z0-9_]*_(?:KEY|URL|MODEL)=/m.test(example)).toBe(reads);
    },
  );

  // Issue 39: .env.example described variables some projects did not read, and left out HOST
  // and WEFT_MEMORY_PATH, which they do.
  it.each(combinations)(
    '--model %s --memory %s: .env.example lists exactly the variables the project reads [claim:gs-env-example]',
    async (model, memory) => {
      const directory = path.join(work, 'env-check');
      const project = await createProject({ directory, model, memory, source: 'registry' });
      const read = new Set<string>();
      for (const file of project.files.filter((name) => name.startsWith('src/'))) {
        const source = await readFile(path.join(directory, file), 'utf8');
        for (const match of source.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)/g)) read.add(match[1]!);
      }
      // The core reads WEFT_LOG_LEVEL itself.
      read.add('WEFT_LOG_LEVEL');
      const example = await readFile(path.join(directory, '.env.example'), 'utf8');
      const listed = new Set(
        [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!),
      );
      expect([...listed].sort()).toEqual([...read].sort());
      expect(read).toContain('HOST');
      if (memory === 'sqlite') expect(read).toContain('WEFT_MEMORY_PATH');
    },
  );

  // Issue 39: the agent's default port was 3000, which the docs site's `npm start` holds.
  it('writes the default port of src/port.ts, not 3000, wherever the project names its port [claim:gs-dockerfile] [claim:gs-listening] [claim:gs-port]', async () => {
    const port = await defaultAgentPort();
    expect(port).not.toBe(3000);
    const directory = path.join(work, 'ported');
    await createProject({ directory, model: 'ollama', memory: 'sqlite', source: 'registry' });
    for (const file of ['README.md', 'Dockerfile', 'compose.yaml', '.env.example']) {
      const text = await readFile(path.join(directory, file), 'utf8');
      expect(text, file).toContain(String(port));
      expect(text, file).not.toContain('3000');
    }
    expect(await readFile(path.join(directory, '.env.example'), 'utf8')).toMatch(
      new RegExp(`^PORT=${port}$`, 'm'),
    );
    expect(await readFile(path.join(directory, 'Dockerfile'), 'utf8')).toMatch(
      new RegExp(`^EXPOSE ${port}$`, 'm'),
    );
    // No .env is written: PORT goes in one the user copies from .env.example.
    expect(await readdir(directory)).not.toContain('.env');
  });

  it.each([
    [
      'npm',
      ['npm install', 'npm run dev', 'npm run build', 'npm start', 'npm test', 'npm run typecheck'],
    ],
    [
      'pnpm',
      ['pnpm install', 'pnpm dev', 'pnpm build', 'pnpm start', 'pnpm test', 'pnpm typecheck'],
    ],
    [
      'yarn',
      ['yarn install', 'yarn dev', 'yarn build', 'yarn start', 'yarn test', 'yarn typecheck'],
    ],
    [
      'bun',
      [
        'bun install',
        'bun run dev',
        'bun run build',
        'bun run start',
        'bun run test',
        'bun run typecheck',
      ],
    ],
  ] as const)(
    "gives the %s commands in the project's README, the model's section included [claim:create-weft-readme-manager-commands]",
    async (packageManager, commands) => {
      const directory = path.join(work, `with-${packageManager}`);
      await createProject({
        directory,
        model: 'ollama',
        memory: 'memory',
        source: 'registry',
        packageManager,
      });
      const readme = await readFile(path.join(directory, 'README.md'), 'utf8');
      for (const command of commands) expect(readme).toContain(`\`${command}\``);
      // The install comes first whenever create-weft's own did not run or failed.
      expect(readme.replace(/\s+/g, ' ')).toContain(
        `unless it was run with \`--skip-install\` or its install failed: then run \`${commands[0]}\` first.`,
      );
      // The Ollama section names the commands that stop without it.
      expect(readme).toContain(`\`${commands[1]}\` and \`${commands[3]}\` stop at once`);
      if (packageManager !== 'npm') expect(readme).not.toMatch(/\bnpm (run|test|start|install)\b/);
    },
  );

  it("names the container image in README.md and the Dockerfile after the npm name, without the scope's @ [claim:create-weft-readme-image-name]", async () => {
    const project = await createProject({
      directory: path.join(work, 'support-bot'),
      name: '@acme/support-bot',
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    const manifest = JSON.parse(
      await readFile(path.join(project.directory, 'package.json'), 'utf8'),
    ) as { name: string };
    expect(manifest.name).toBe('@acme/support-bot');
    for (const file of ['README.md', 'Dockerfile']) {
      const text = await readFile(path.join(project.directory, file), 'utf8');
      const built = [...text.matchAll(/docker build -t (\S+) \./g)].map((match) => match[1]);
      const run = [...text.matchAll(/docker run .*--env-file \.env (\S+)$/gm)].map(
        (match) => match[1],
      );
      expect(built).toEqual(['acme/support-bot']);
      expect(run).toEqual(['acme/support-bot']);
      expect(text).not.toMatch(/docker .*@acme/);
    }
  });

  it('fills an empty folder the user made where it is, writing nothing beside it [claim:create-weft-readme-folder-empty] [claim:create-weft-readme-fills-in-place]', async () => {
    const directory = path.join(work, 'empty');
    await mkdir(directory);
    const before = await stat(directory);
    const project = await createProject({
      directory,
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    // The same folder, not one put in its place: a mount point or a shell's current folder
    // cannot be replaced.
    expect((await stat(directory)).ino).toBe(before.ino);
    expect((await readdir(directory)).sort()).toEqual(
      project.files
        .filter((file) => !file.includes('/'))
        .concat(['src', 'test'])
        .sort(),
    );
    expect(await readdir(work)).toEqual(['empty']);
  });

  // Windows lets only an administrator make symbolic links.
  it.skipIf(process.platform === 'win32')(
    'fills the empty folder a symbolic link leads to, and keeps the link [claim:create-weft-readme-fills-in-place] [claim:tsdoc-create-project-refusals]',
    async () => {
      const real = path.join(work, 'elsewhere', 'agent-data');
      await mkdir(real, { recursive: true });
      const link = path.join(work, 'linked-agent');
      await symlink(real, link, 'dir');
      const project = await createProject({
        directory: link,
        model: 'scripted',
        memory: 'memory',
        source: 'registry',
      });
      expect(project).toMatchObject({ directory: link, name: 'linked-agent' });
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readdir(real)).toContain('package.json');
      // No staging folder is left beside the link or beside the folder it leads to.
      expect((await readdir(work)).sort()).toEqual(['elsewhere', 'linked-agent']);
      expect(await readdir(path.join(work, 'elsewhere'))).toEqual(['agent-data']);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'refuses a symbolic link that leads to no folder, with a CreateWeftError, and leaves it [claim:create-weft-readme-folder-empty] [claim:tsdoc-create-project-refusals]',
    async () => {
      const link = path.join(work, 'dangling');
      await symlink(path.join(work, 'gone'), link, 'dir');
      const refusal = createProject({
        directory: link,
        model: 'scripted',
        memory: 'memory',
        source: 'registry',
      });
      await expect(refusal).rejects.toThrow(CreateWeftError);
      await expect(refusal).rejects.toThrow(
        /dangling: is a symbolic link that leads to no folder; fix: .* \[WEFT_CREATE_FOLDER_TAKEN\]$/,
      );
      expect(await readdir(work)).toEqual(['dangling']);
    },
  );

  it('refuses a folder that is not empty and leaves it untouched [claim:gs-refuses] [claim:create-weft-readme-folder-empty] [claim:tsdoc-create-project-refusals]', async () => {
    const directory = path.join(work, 'taken');
    await mkdir(directory);
    await writeFile(path.join(directory, 'notes.txt'), 'mine');
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(/taken: is not empty; fix: choose a new folder name/);
    expect(await readdir(directory)).toEqual(['notes.txt']);
  });

  it('refuses a path that is a file, with a CreateWeftError (TSDoc of createProject) [claim:tsdoc-create-project-refusals]', async () => {
    const directory = path.join(work, 'a-file');
    await writeFile(directory, 'mine');
    const refusal = createProject({
      directory,
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    await expect(refusal).rejects.toThrow(CreateWeftError);
    await expect(refusal).rejects.toThrow(
      /a-file: is a file; fix: choose a folder name that is free/,
    );
  });

  it('refuses with WEFT_CREATE_WRITE_FAILED a place the file system will not write, naming the folder and its answer, and leaves nothing behind [claim:errors-create-write-failed] [claim:tsdoc-create-project-refusals]', async () => {
    // Under a file: no folder can be made there, whoever runs the test (root included).
    await writeFile(path.join(work, 'a-file'), 'mine');
    const underFile = path.join(work, 'a-file', 'nested', 'agent');
    const refusal = createProject({
      directory: underFile,
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    await expect(refusal).rejects.toMatchObject({
      code: 'WEFT_CREATE_WRITE_FAILED',
      message: expect.stringMatching(
        new RegExp(
          `^${underFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot be written: ENOTDIR: .*; fix: choose a folder you may write to, on a disk with free space \\[WEFT_CREATE_WRITE_FAILED\\]$`,
        ),
      ),
      cause: expect.objectContaining({ code: 'ENOTDIR' }),
    });
    expect(await readdir(work)).toEqual(['a-file']);
  });

  it('refuses a name npm would not accept, before writing anything [claim:gs-refuses] [claim:create-weft-readme-valid-name] [claim:tsdoc-create-project-refusals]', async () => {
    const directory = path.join(work, 'Bad Name');
    await expect(
      createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' }),
    ).rejects.toThrow(CreateWeftError);
    expect(await readdir(work)).toEqual([]);
  });

  it('leaves nothing behind when packing fails half-way [claim:gs-refuses] [claim:create-weft-readme-nothing-left] [claim:tsdoc-create-project-nothing-behind]', async () => {
    // A "clone" whose packages cannot be built: npm fails after the staging folder exists.
    const fakeRoot = path.join(work, 'fake-clone');
    await mkdir(path.join(fakeRoot, 'packages/core'), { recursive: true });
    await writeFile(path.join(fakeRoot, 'package.json'), '{"name":"fake","private":true}');
    const directory = path.join(work, 'nested/folders/my-agent');
    await expect(
      createProject({
        directory,
        model: 'scripted',
        memory: 'memory',
        source: 'workspace',
        workspaceRoot: fakeRoot,
      }),
    ).rejects.toThrow();
    expect((await readdir(work)).sort()).toEqual(['fake-clone']);
  }, 60_000);

  it('refuses with WEFT_CREATE_NO_WORKSPACE a workspaceRoot that is no clone, before writing anything [claim:errors-create-no-workspace] [claim:tsdoc-create-project-refusals]', async () => {
    const notAClone = path.join(work, 'not-a-clone');
    await mkdir(notAClone);
    const directory = path.join(work, 'my-agent');
    const refusal = createProject({
      directory,
      model: 'scripted',
      memory: 'memory',
      source: 'workspace',
      workspaceRoot: notAClone,
    });
    await expect(refusal).rejects.toThrow(CreateWeftError);
    await expect(refusal).rejects.toMatchObject({ code: 'WEFT_CREATE_NO_WORKSPACE' });
    await expect(refusal).rejects.toThrow(/workspaceRoot ".*not-a-clone" is not a clone/);
    expect(await readdir(work)).toEqual(['not-a-clone']);
    // A fake clone passes the check (packing it is another test's subject).
    const fakeRoot = await writeFakeClone({ version: ownVersion() });
    const error = await createProject({
      directory,
      model: 'scripted',
      memory: 'memory',
      source: 'workspace',
      workspaceRoot: fakeRoot,
      signal: AbortSignal.abort(new Error('stop here')),
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('stop here');
  });

  it('makes a project written from a clone depend on tarballs in vendor/, its README naming the ^version to use once published [claim:stability-generated-vendor]', async () => {
    // A clone whose two packages have a fresh build: packing needs no build, only `npm pack`.
    const version = ownVersion();
    const fakeRoot = await writeFakeClone({ version, files: ['dist'] });
    for (const name of CLONE_PACKAGES) {
      const dist = path.join(fakeRoot, 'packages', name, 'dist');
      await mkdir(dist);
      for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
        await writeFile(path.join(dist, file), '');
      }
    }
    const directory = path.join(work, 'my-agent');
    await createProject({
      directory,
      model: 'scripted',
      memory: 'memory',
      source: 'workspace',
      workspaceRoot: fakeRoot,
    });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies).toMatchObject({
      '@weft/core': `file:vendor/weft-core-${version}.tgz`,
      '@weft/testing': `file:vendor/weft-testing-${version}.tgz`,
    });
    const readme = await readFile(path.join(directory, 'README.md'), 'utf8');
    expect(readme).toContain(`with \`^${version}\``);
    // A package it lacks, such as a real model's, is not on the registry yet: the README says
    // where it comes from instead.
    expect(readme).toMatch(/`@weft\/model-openai`[^]*pack it there into this project's `vendor\/`/);
  }, 60_000);

  it('stops packing and leaves nothing behind when its signal is aborted [claim:create-weft-readme-nothing-left] [claim:tsdoc-create-project-nothing-behind]', async () => {
    // A clone whose builds hang: packing is under way until the signal stops it.
    const hang = `node -e "setTimeout(() => {}, 120000)"`;
    const fakeRoot = await writeFakeClone({ version: '0.0.0', scripts: { build: hang } });
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const started = Date.now();
    const creating = createProject({
      directory: path.join(work, 'nested/my-agent'),
      model: 'scripted',
      memory: 'memory',
      source: 'workspace',
      workspaceRoot: fakeRoot,
      signal: controller.signal,
      onProgress: (step) => {
        if (step.startsWith('Packing')) setTimeout(() => controller.abort(reason), 1000);
      },
    });
    await expect(creating).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await readdir(work)).sort()).toEqual(['fake-clone']);
  }, 60_000);

  it('writes nothing when its signal is aborted already [claim:tsdoc-create-project-nothing-behind]', async () => {
    const reason = new Error('interrupted');
    await expect(
      createProject({
        directory: path.join(work, 'my-agent'),
        model: 'scripted',
        memory: 'memory',
        source: 'registry',
        signal: AbortSignal.abort(reason),
      }),
    ).rejects.toBe(reason);
    expect(await readdir(work)).toEqual([]);
  });
});
