/**
 * The production guide's systemd unit, its `ExecStart=` run as systemd runs it: the line split
 * into words and executed without a shell, from the clone in place of `WorkingDirectory`, in a
 * process group of its own, and stopped by a SIGTERM to the whole group, as systemd's default
 * `KillMode=control-group` sends it to every process of the service. The only changes to the
 * unit: the Node.js running the tests in place of /usr/bin/node, the stand-in model server, a
 * token and a free port in place of the environment file, and the database in a temporary folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '@weft-internal/test-support/commands';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema.js';
import {
  sectionBlocks,
  StartedCommand,
} from '../../tests/support/page-commands.js';
import {
  startFakeChatServer,
  type FakeChatServer,
} from '../tutorial-chat/fake-chat-server.js';

const ROOT = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../..',
);
const PAGE = path.join(ROOT, 'docs/guides/production.md');

/** The `[Service]` settings of the page's unit file, by key. */
function serviceSettings(): Map<string, string> {
  const [unit] = sectionBlocks(PAGE, 'Run it as a service', ['text']);
  expect(unit).toContain('[Service]');
  const service = (unit as string).split('[Service]')[1]?.split(/^\[/m)[0];
  const settings = new Map<string, string>();
  for (const line of (service ?? '').split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1] as string, match[2] as string);
  }
  return settings;
}

/** The unit's `ExecStart=` split into words, as systemd splits it, and its `Environment=`. */
function unitCommand(): { args: string[]; fromUnit: NodeJS.ProcessEnv } {
  const settings = serviceSettings();
  expect(settings.get('WorkingDirectory')).toBe('/srv/weft');
  const execStart = settings.get('ExecStart') ?? '';
  // systemd runs the line itself, with no shell: quotes or shell syntax would change its words.
  expect(execStart).not.toMatch(/["'$;&|<>`\\]/);
  const [program, ...args] = execStart.split(/\s+/);
  expect(program).toBe('/usr/bin/node');
  const fromUnit: NodeJS.ProcessEnv = {};
  for (const pair of (settings.get('Environment') ?? '').split(/\s+/)) {
    const [key, ...value] = pair.split('=');
    fromUnit[key as string] = value.join('=');
  }
  expect(Object.keys(fromUnit)).toEqual(['CHAT_DB', 'WEFT_LOG_LEVEL']);
  return { args, fromUnit };
}

// systemd and process groups are POSIX's.
describe.skipIf(process.platform === 'win32')(
  'the production guide’s systemd unit',
  () => {
    let model: FakeChatServer;
    let directory = '';

    beforeAll(async () => {
      model = await startFakeChatServer();
      directory = await mkdtemp(path.join(tmpdir(), 'weft-service-unit-'));
    });

    afterAll(async () => {
      await model?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it('gives the stop more time than the runtime takes: TimeoutStopSec above shutdownTimeoutMs plus 7 s, 45 s against 37 s [claim:prod-supervisor-stop-timeout]', () => {
      const stopSeconds = Number(serviceSettings().get('TimeoutStopSec'));
      expect(stopSeconds).toBe(45);
      // The drain, then up to 5 s of stop (prod-abandon-after-grace) and 2 s to exit
      // (prod-exit-after-stop), which tests/integration/core/signalled-stop.test.ts times.
      const { shutdownTimeoutMs } = optionsSchema.parse({});
      expect((shutdownTimeoutMs + 7_000) / 1000).toBe(37);
      expect(stopSeconds * 1000).toBeGreaterThan(shutdownTimeoutMs + 7_000);
    });

    it("runs ExecStart as the service's only process, which stops on systemd's SIGTERM and exits 0 [claim:prod-execstart-one-process] [claim:prod-sigterm-exit]", async () => {
      const { args, fromUnit } = unitCommand();
      const env = cleanEnv({
        ...fromUnit,
        CHAT_DB: path.join(directory, 'chat-memory.db'),
        CHAT_API_TOKEN: 'a'.repeat(64),
        CHAT_BASE_URL: model.baseUrl,
        CHAT_PORT: '0',
      });

      const service = new StartedCommand([process.execPath, ...args], {
        cwd: ROOT,
        env,
      });
      try {
        await service.waitFor(/"msg":"chat service ready"/, 60_000);
        // The process systemd started is the one the runtime logs from: no wrapper between them.
        expect(new Set(service.logPids())).toEqual(
          new Set([service.child.pid]),
        );

        service.signal('SIGTERM');
        await service.waitFor(/"msg":"runtime stopped"/, 30_000);
        expect(await service.exited(15_000)).toBe(true);
        expect(await service.exit).toBe(0);
        expect(service.output).toMatch(
          /"signal":"SIGTERM","msg":"signal received; stopping"/,
        );
        expect(new Set(service.logPids())).toEqual(
          new Set([service.child.pid]),
        );
      } finally {
        await service.stop();
      }
    }, 120_000);

    it('exits with code 1 when the start fails, so that Restart=on-failure starts it again [claim:prod-start-failure-exits]', async () => {
      const { args, fromUnit } = unitCommand();
      // systemd restarts a unit whose process exits with a code other than 0.
      expect(serviceSettings().get('Restart')).toBe('on-failure');
      // Another program holds the port, so the start fails as the server listens.
      const holder = createServer();
      await new Promise<void>((resolve) =>
        holder.listen(0, '127.0.0.1', resolve),
      );
      const { port } = holder.address() as AddressInfo;
      const service = new StartedCommand([process.execPath, ...args], {
        cwd: ROOT,
        env: cleanEnv({
          ...fromUnit,
          CHAT_DB: path.join(directory, 'failed-start.db'),
          CHAT_API_TOKEN: 'a'.repeat(64),
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: String(port),
        }),
      });
      try {
        expect(await service.exited(60_000)).toBe(true);
        expect(await service.exit).toBe(1);
        expect(service.output).toMatch(
          /"msg":"runtime failed to start; rolling back"/,
        );
      } finally {
        await service.stop();
        await new Promise((resolve) => holder.close(resolve));
      }
    }, 120_000);
  },
);
