/**
 * Every package README tells the same story about installing as the plugins page: its install
 * line is the package's install command, and it points to the one page that says whether the
 * packages are published yet.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { site } from '@weft-internal/docs-model/site';
import {
  INSTALLATION_PATH,
  installCommand,
  readCatalogue,
} from '@weft-internal/docs-model/catalogue/catalogue';

const packagesDir = path.resolve(__dirname, '../../packages');
const { entries, errors } = await readCatalogue(packagesDir);

/** The shell lines of a README's ```sh blocks. */
function shellLines(readme: string): string[] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
    (match[1] ?? '').split('\n').map((line) => line.trim()),
  );
}

describe('package READMEs', () => {
  it('cover every package of the catalogue', () => {
    expect(errors).toEqual([]);
    expect(entries.map((entry) => entry.name)).toContain('create-weft');
  });

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s: installs as the plugins page says and links to the installation page [claim:install-one-place]',
    async (_name, entry) => {
      const readme = await readFile(path.join(packagesDir, entry.directory, 'README.md'), 'utf8');
      const command = installCommand(entry);
      const [verb, ...words] = command.split(' ');
      // The README may install a peer alongside (`npm install @weft/core @weft/plugin-chat`).
      const installLine = shellLines(readme).find(
        (line) => line.startsWith(`${verb} ${words[0]} `) && words.every((w) => line.includes(w)),
      );
      expect(installLine, `${entry.directory}/README.md has no "${command}" line`).toBeDefined();
      expect(readme).toContain(`](${site.url}${INSTALLATION_PATH})`);
    },
  );

  // The runtime's HTTP server, which route triggers need, runs on express and cors: optional
  // peers of @weft/core that npm leaves out, so the line a reader copies must name them.
  it.each(
    entries
      .filter((entry) => entry.requires.services.includes('http-server'))
      .map((entry) => [entry.name, entry] as const),
  )(
    '%s: needs the HTTP server, so its install line adds express and cors [claim:chat-readme-express-cors]',
    async (_name, entry) => {
      const readme = await readFile(path.join(packagesDir, entry.directory, 'README.md'), 'utf8');
      const installLine = shellLines(readme).find(
        (line) => line.startsWith('npm install ') && line.split(' ').includes(entry.name),
      );
      expect(installLine?.split(' ')).toEqual(expect.arrayContaining(['express', 'cors']));
    },
  );
});
