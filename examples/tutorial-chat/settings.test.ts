/** The tutorial agent's settings: read from CHAT_* variables, each with a local default. */
import { describe, expect, it } from 'vitest';
import { createChatModels } from './models.js';
import { ChatSettingsError, readChatSettings } from './settings.js';

describe('readChatSettings', () => {
  it('defaults every variable of the table to a local Ollama [claim:tut-run-from-clone] [claim:tut-env-defaults]', () => {
    expect(readChatSettings({})).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
      plannerModel: 'llama3.2:3b',
      writerModel: 'llama3.1:8b',
      databasePath: './chat-memory.db',
      port: 8787,
    });
  });

  it('takes an empty variable for an unset one, and names CHAT_PORT when it is no port [claim:tut-bad-port] [claim:tut-env-defaults]', () => {
    // Every variable of the table, each set to an empty value (or white space), gets its default.
    expect(
      readChatSettings({
        CHAT_BASE_URL: ' ',
        CHAT_API_KEY: '',
        CHAT_PLANNER_MODEL: '',
        CHAT_WRITER_MODEL: '',
        CHAT_DB: '',
        CHAT_PORT: '',
      }),
    ).toEqual(readChatSettings({}));
    expect(readChatSettings({ CHAT_PORT: '0' }).port).toBe(0);
    for (const bad of ['eighty', '-1', '1.5', '65536']) {
      expect(() => readChatSettings({ CHAT_PORT: bad })).toThrow(
        `CHAT_PORT: expected an integer from 0 to 65535, got "${bad}"; unset it to use 8787.`,
      );
    }
  });
});

describe('createChatModels', () => {
  it('reports a setting the provider refuses as a ChatSettingsError naming the variables [claim:tut-main-one-line] [claim:tut-provider-refuses-setting]', () => {
    const settings = readChatSettings({ CHAT_BASE_URL: 'localhost:11434/v1' });
    expect(() => createChatModels(settings)).toThrow(ChatSettingsError);
    expect(() => createChatModels(settings)).toThrow(
      /^CHAT_BASE_URL or CHAT_API_KEY has a value the provider refuses: OpenAIModelProvider: option "baseUrl" must be an absolute http\(s\) URL/,
    );
    // A key the provider cannot send is named too, without showing the key.
    const badKey = readChatSettings({ CHAT_API_KEY: 'sk-€' });
    expect(() => createChatModels(badKey)).toThrow(ChatSettingsError);
    expect(() => createChatModels(badKey)).not.toThrow(/sk-€/);
  });
});
