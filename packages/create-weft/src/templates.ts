import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEMORY_LABELS, MODEL_LABELS, type MemoryChoice, type ModelChoice } from './choices.js';
import { allowedInstallScripts } from './install-scripts.js';
import {
  formatCommand,
  installCommand,
  scriptCommand,
  type PackageManager,
} from './package-manager.js';

/** templates/ beside src/ and dist/, so the same files serve a clone and the published package. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

/**
 * Template files whose names npm or the repository would treat specially under their real
 * name: npm drops `.gitignore` from tarballs, and a nested `package.json` would look like a
 * workspace package. `.dockerignore` follows `.gitignore`, so dot files are never missed.
 */
const RENAMED: Record<string, string> = {
  '_package.json': 'package.json',
  _gitignore: '.gitignore',
  _dockerignore: '.dockerignore',
  'env.example': '.env.example',
};

/** The Markdown snippets of a choice, spliced into the README rather than copied. */
const PARTIAL = 'README.md';

/**
 * Each layer's variables: the base's, then the model's, then the memory's are joined into one
 * `.env.example`, so it lists every variable the project reads.
 */
const ENV_EXAMPLE = '.env.example';

/** The generated agent's `src/port.ts`, whose number the README, Dockerfile and `.env.example` repeat. */
const PORT_FILE = path.join(TEMPLATES_DIR, 'base', 'src', 'port.ts');

/**
 * The agent's default port, read from the file the project itself imports it from, so the
 * prose and the code cannot disagree.
 *
 * @returns The number `DEFAULT_PORT` is set to in `templates/base/src/port.ts`.
 */
export async function defaultAgentPort(): Promise<number> {
  const match = /export const DEFAULT_PORT = (\d+);/.exec(await readFile(PORT_FILE, 'utf8'));
  if (!match?.[1]) throw new Error(`templates: ${PORT_FILE} does not set DEFAULT_PORT`);
  return Number(match[1]);
}

/**
 * The container image name the project's README and Dockerfile use: the npm name made into a
 * Docker reference. Docker takes lower-case letters and digits, joined by `.`, `_`, `__` or
 * dashes, in components separated by `/`, and no `@`: a scope's `@` is dropped (`@acme/bot`
 * becomes `acme/bot`), any other run of characters Docker refuses becomes one `-`, and
 * separators at either end of a component go.
 *
 * @param projectName - A name npm accepts for a new package.
 * @returns A name `docker build -t` accepts; `agent` when nothing of the npm name is left.
 */
export function containerImageName(projectName: string): string {
  const components = projectName
    .toLowerCase()
    .replace(/^@/, '')
    .split('/')
    .map((component) =>
      component
        .replace(/[^a-z0-9]+/g, (run) => (/^(?:[._]|__|-+)$/.test(run) ? run : '-'))
        .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, ''),
    )
    .filter((component) => component !== '');
  return components.length > 0 ? components.join('/') : 'agent';
}

/** What {@link renderProject} fills the templates with. */
export interface RenderOptions {
  projectName: string;
  model: ModelChoice;
  memory: MemoryChoice;
  /** The project's runtime dependencies, name to version or `file:` specifier. */
  dependencies: Record<string, string>;
  /** A paragraph for the README about where the Weft packages come from, or ''. */
  dependencyNote: string;
  /** The package manager whose commands the README gives. Default: npm. */
  packageManager?: PackageManager;
}

/** The README's commands, as the user types them with `manager`. */
function commandValues(manager: PackageManager): Record<string, string> {
  const run = (script: string) => formatCommand(scriptCommand(manager, script));
  return {
    install: formatCommand(installCommand(manager)),
    runDev: run('dev'),
    runBuild: run('build'),
    runStart: run('start'),
    runTest: run('test'),
    runTypecheck: run('typecheck'),
  };
}

/** Every file of the new project, by path relative to its folder. */
export async function renderProject(options: RenderOptions): Promise<Map<string, string>> {
  const modelDir = path.join(TEMPLATES_DIR, 'model', options.model);
  const memoryDir = path.join(TEMPLATES_DIR, 'memory', options.memory);
  const commands = commandValues(options.packageManager ?? 'npm');
  // A choice's README snippet names commands too; it is filled in before it is spliced in.
  const section = async (dir: string) =>
    substitute(
      (await readFile(path.join(dir, PARTIAL), 'utf8')).trim(),
      commands,
      path.join(path.relative(TEMPLATES_DIR, dir), PARTIAL),
    );
  const values: Record<string, string> = {
    projectName: options.projectName,
    imageName: containerImageName(options.projectName),
    model: MODEL_LABELS[options.model],
    memory: MEMORY_LABELS[options.memory],
    modelSection: await section(modelDir),
    memorySection: await section(memoryDir),
    dependencyNote: options.dependencyNote,
    port: String(await defaultAgentPort()),
    ...commands,
  };

  const files = new Map<string, string>();
  for (const dir of [path.join(TEMPLATES_DIR, 'base'), modelDir, memoryDir]) {
    for (const file of await listFiles(dir)) {
      if (dir !== path.join(TEMPLATES_DIR, 'base') && file === PARTIAL) continue;
      const target = RENAMED[file] ?? file;
      const text = substitute(await readFile(path.join(dir, file), 'utf8'), values, file);
      const before = target === ENV_EXAMPLE ? (files.get(target) ?? '') : '';
      files.set(target, before + text);
    }
  }

  const manifestText = files.get('package.json');
  if (manifestText === undefined) throw new Error('templates/base/_package.json is missing');
  const manifest = JSON.parse(manifestText) as {
    dependencies: Record<string, string>;
    allowScripts?: Record<string, boolean>;
  };
  manifest.dependencies = sortKeys(options.dependencies);
  manifest.allowScripts = sortKeys(allowedInstallScripts(options.memory));
  files.set('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
  files.set('README.md', tidyMarkdown(files.get('README.md') ?? ''));
  return files;
}

/** Replaces each `{{key}}`; a key with no value is a bug in the templates, so it throws. */
export function substitute(text: string, values: Record<string, string>, file: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined)
      throw new Error(`templates: ${file} uses {{${key}}}, which has no value`);
    return value;
  });
}

/** Paths of the files under `dir`, relative to it, with forward slashes, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** An empty placeholder leaves blank lines behind: keep at most one between paragraphs. */
function tidyMarkdown(text: string): string {
  return `${text.replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
