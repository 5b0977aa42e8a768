/**
 * The warning a chat answer carries when its task's chain was not stored is one text wherever
 * it is sent or quoted: `@weft/plugin-chat`'s `NOT_REMEMBERED_WARNING`, which names the reply as
 * what is lost (the message was stored when its task started).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_REMEMBERED_WARNING } from '@weft/plugin-chat';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFile(path.join(root, file), 'utf8');

describe('the chat warning', () => {
  it('is quoted as plugin-chat sends it on the HTTP chat page [claim:httpchat-warning]', async () => {
    expect(NOT_REMEMBERED_WARNING).toMatch(/^This reply may not have been saved/);
    expect(await read('docs/building-plugins/http-chat.md')).toContain(
      `\`"${NOT_REMEMBERED_WARNING}"\``,
    );
  });

  it("is plugin-chat's text in the getting-started agent and its template [claim:gs-warning] [claim:task-chat-warns-unrecorded]", async () => {
    for (const file of [
      'examples/getting-started/assistant-plugin.ts',
      'packages/create-weft/templates/base/src/assistant-plugin.ts',
    ]) {
      expect(await read(file), file).toContain(`'${NOT_REMEMBERED_WARNING}'`);
    }
  });
});
