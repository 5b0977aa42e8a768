/**
 * The provider's options: headers against the ones it sets, an unknown option named, and the
 * defaults it applies as the options tables of the README and the overview show them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OpenAIModelProvider, OpenAIModelProviderError } from '../src/index.js';
import { DEFAULTS } from '../src/options.js';
import { completion, reply } from './chat-server.js';
import { chatServerPerTest, send } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

/** The message of the WEFT_OPENAI_INVALID_OPTIONS a provider of `baseUrl` is refused with. */
function refusal(baseUrl: string): string {
  try {
    new OpenAIModelProvider({ baseUrl, model: 'm' });
  } catch (error) {
    expect(OpenAIModelProviderError.is(error, 'WEFT_OPENAI_INVALID_OPTIONS')).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${baseUrl} was accepted`);
}

describe('OpenAIModelProvider options', () => {
  it('lets headers override Accept and Content-Type, and an apiKey that is not blank replace their Authorization [claim:oai-headers]', async () => {
    server.enqueue(completion('one'), completion('two'), completion('three'));
    const headers = {
      Accept: 'application/vnd.custom+json',
      'Content-Type': 'application/json; charset=utf-8',
      Authorization: 'Bearer from-headers',
    };
    await send(new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm', headers }));
    await send(
      new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm', headers, apiKey: 'sk-key' }),
    );
    await send(
      new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm', headers, apiKey: () => '' }),
    );
    server.enqueue(completion('four'));
    await send(
      new OpenAIModelProvider({
        baseUrl: server.baseUrl,
        model: 'm',
        headers,
        apiKey: () => ' \n',
      }),
    );
    const [withoutKey, withKey, withEmptyKey, withBlankKey] = server.requests.map(
      (request) => request.headers,
    );
    expect(withoutKey).toMatchObject({
      accept: 'application/vnd.custom+json',
      'content-type': 'application/json; charset=utf-8',
      authorization: 'Bearer from-headers',
    });
    expect(withKey?.authorization).toBe('Bearer sk-key');
    // An empty key sends no Authorization of its own, so the header's stays.
    expect(withEmptyKey?.authorization).toBe('Bearer from-headers');
    // So does a key of white space alone.
    expect(withBlankKey?.authorization).toBe('Bearer from-headers');
  });

  it('refuses a baseUrl with a user name or password without showing it, and one with a query or a fragment, before any request [claim:oai-baseurl] [claim:tsdoc-openai-baseurl-plain] [claim:oai-no-echo]', () => {
    const withPassword = refusal('https://user:s3cret@api.example.com/v1');
    expect(withPassword).toBe(
      'OpenAIModelProvider: option "baseUrl" must not hold a user name or password (give the key with option "apiKey"), got a URL with credentials, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
    );
    expect(withPassword).not.toContain('s3cret');
    // Nor when the URL is refused for another reason: another scheme, or none at all.
    for (const baseUrl of [
      'ftp://user:s3cret@api.example.com/v1',
      'user:s3cret@localhost:11434/v1',
      'https//user:s3cret@api.example.com/v1',
    ]) {
      expect(refusal(baseUrl)).toBe(
        'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got a value with "@" in it, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      );
    }
    expect(refusal('localhost:11434/v1')).toBe(
      'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "localhost:11434/v1" [WEFT_OPENAI_INVALID_OPTIONS]',
    );
    expect(refusal('https://api.example.com/v1?api-version=1')).toBe(
      'OpenAIModelProvider: option "baseUrl" must not hold a query or a fragment, since "/chat/completions" and "/models" are appended to it, got "https://api.example.com/v1" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
    );
    expect(refusal('https://api.example.com/v1#x')).toMatch(/must not hold a query or a fragment/);
    expect(refusal('https://api.example.com/v1?')).toMatch(/must not hold a query or a fragment/);
    expect(
      new OpenAIModelProvider({ baseUrl: 'https://api.example.com/v1/', model: 'm' }).baseUrl,
    ).toBe('https://api.example.com/v1');
  });

  it('quotes a refused baseUrl without its query or fragment, which may hold a key [claim:oai-baseurl-query-hidden] [claim:oai-baseurl]', () => {
    // Each reason for the refusal: the query itself, a control character, not an http(s) URL.
    expect(
      [
        'https://api.example.com/v1?key=s3cret',
        'https://api.example.com/v1#key=s3cret',
        'https://api.example.com/v1\t?key=s3cret',
        'api.example.com/v1?key=s3cret',
        'ftp://api.example.com/v1?key=s3cret',
        'https://api example.com/v1?key=s3cret#more',
      ].map(refusal),
    ).toEqual([
      'OpenAIModelProvider: option "baseUrl" must not hold a query or a fragment, since "/chat/completions" and "/models" are appended to it, got "https://api.example.com/v1" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      'OpenAIModelProvider: option "baseUrl" must not hold a query or a fragment, since "/chat/completions" and "/models" are appended to it, got "https://api.example.com/v1" followed by a fragment, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      'OpenAIModelProvider: option "baseUrl" must not hold a control character such as a line break (the URL parser drops it silently), got "https://api.example.com/v1\\t" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "api.example.com/v1" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "ftp://api.example.com/v1" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
      'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "https://api example.com/v1" followed by a query, not shown [WEFT_OPENAI_INVALID_OPTIONS]',
    ]);
    // Not at all when it may hold a user name or password.
    expect(refusal('https://user:s3cret@api.example.com/v1?key=s3cret')).toMatch(
      /got a URL with credentials, not shown \[/,
    );
    expect(refusal('user:s3cret@api.example.com/v1?key=s3cret')).toMatch(
      /got a value with "@" in it, not shown \[/,
    );
    // Nor when a `?` or `#` in the password comes before the `@`: the part before it would show
    // the user name and the start of the password (the third parses as host "user", port 1234).
    for (const baseUrl of [
      'https://user:s3?cret@api.example.com/v1',
      'https://user:s3#cret@api.example.com/v1',
      'https://user:1234?cret@api.example.com/v1',
      'localhost:11434/v1?user=a@b&key=s3cret',
    ]) {
      const message = refusal(baseUrl);
      expect(message).toMatch(/got a value with "@" in it, not shown \[/);
      expect(message).not.toMatch(/user|s3|1234|localhost/);
    }
  });

  it('refuses a line break in id or baseUrl, which would split the messages that quote them [claim:oai-baseurl] [claim:oai-messages]', () => {
    const messages = [{ id: 'ollama\nlocal' }, { baseUrl: `${server.baseUrl}\n/x` }].map((bad) => {
      try {
        new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm', ...bad });
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    });
    expect(messages).toEqual([
      'OpenAIModelProvider: option "id" must be a non-empty string without a control character such as a line break, got "ollama\\nlocal" [WEFT_OPENAI_INVALID_OPTIONS]',
      `OpenAIModelProvider: option "baseUrl" must not hold a control character such as a line break (the URL parser drops it silently), got ${JSON.stringify(`${server.baseUrl}\n/x`)} [WEFT_OPENAI_INVALID_OPTIONS]`,
    ]);
    // Around the value, a line break is trimmed like other whitespace.
    expect(new OpenAIModelProvider({ baseUrl: `${server.baseUrl}\n`, model: 'm' }).baseUrl).toBe(
      server.baseUrl,
    );
  });

  it('names an unknown option and lists the known ones [claim:oai-invalid-options] [claim:oai-no-echo] [claim:oai-errors]', () => {
    let thrown: unknown;
    try {
      new OpenAIModelProvider({
        baseUrl: server.baseUrl,
        model: 'm',
        apikey: 'sk-typo',
      } as unknown as ConstructorParameters<typeof OpenAIModelProvider>[0]);
    } catch (error) {
      thrown = error;
    }
    expect(OpenAIModelProviderError.is(thrown, 'WEFT_OPENAI_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toMatch(
      /unknown option "apikey"; known options are id, baseUrl, apiKey/,
    );
    expect((thrown as Error).message).not.toContain('sk-typo');
    expect((thrown as OpenAIModelProviderError).attempts).toBeUndefined();
  });

  it('refuses with WEFT_OPENAI_INVALID_OPTIONS each kind of bad option the errors reference names, naming the option [claim:errors-openai-invalid-options]', () => {
    type Options = ConstructorParameters<typeof OpenAIModelProvider>[0];
    const base: Options = { baseUrl: server.baseUrl, model: 'm' };
    const refused: [Partial<Options>, string][] = [
      [{ baseUrl: 'localhost:11434' }, 'option "baseUrl"'],
      [{ baseUrl: 'http://user:pw@localhost:11434/v1' }, 'option "baseUrl"'],
      [{ baseUrl: 'http://localhost:11434/v1?x=1' }, 'option "baseUrl"'],
      [{ baseUrl: 'http://localhost:11434/v\n1' }, 'option "baseUrl"'],
      [{ id: 'ollama\nlocal' }, 'option "id"'],
      [{ model: ' ' }, 'option "model"'],
      [{ timeoutMs: 0 }, 'option "timeoutMs"'],
      [{ timeoutMs: 1.5 }, 'option "timeoutMs"'],
      [{ totalTimeoutMs: -1 }, 'option "totalTimeoutMs"'],
      [{ maxRetries: -1 }, 'option "maxRetries"'],
      [{ jsonMode: 'off' as never }, 'option "jsonMode" must be true or false, got "off"'],
      [{ apiKey: '' }, 'option "apiKey"'],
      [{ apiKey: '  ' }, 'option "apiKey"'],
      [{ apiKey: '\n' }, 'option "apiKey"'],
      [{ apiKey: 'sk-a\nb' }, 'option "apiKey"'],
      [{ apiKey: 'sk-a\u0007b' }, 'option "apiKey"'],
      [{ headers: { 'X-Trace': 'a\u0007b' } }, 'option "headers"'],
    ];
    for (const [bad, named] of refused) {
      let thrown: unknown;
      try {
        new OpenAIModelProvider({ ...base, ...bad });
      } catch (error) {
        thrown = error;
      }
      expect(OpenAIModelProviderError.is(thrown, 'WEFT_OPENAI_INVALID_OPTIONS'), named).toBe(true);
      expect((thrown as Error).message).toContain(named);
    }
    expect(new OpenAIModelProvider({ ...base, timeoutMs: 1, maxRetries: 0 }).model).toBe('m');
    // A line break at the key's end, as a key read from a file has, is trimmed, not refused.
    expect(new OpenAIModelProvider({ ...base, apiKey: 'sk-a\n' }).model).toBe('m');
  });

  it("writes no key or header value into its errors, and quotes a refused request's server message [claim:wp-secrets]", async () => {
    const key = 'sk-secret-4242';
    const header = 'tenant-secret-77';
    const refused: unknown[] = [];
    for (const bad of [{ apiKey: 4242 }, { headers: { 'bad name': `Bearer ${key}` } }]) {
      try {
        new OpenAIModelProvider({
          baseUrl: server.baseUrl,
          model: 'm',
          ...bad,
        } as unknown as ConstructorParameters<typeof OpenAIModelProvider>[0]);
      } catch (error) {
        refused.push(error);
      }
    }
    expect(refused).toHaveLength(2);
    for (const error of refused) {
      expect(OpenAIModelProviderError.is(error, 'WEFT_OPENAI_INVALID_OPTIONS')).toBe(true);
      expect((error as Error).message).not.toMatch(/4242|secret/);
    }
    server.enqueue(reply(401, { error: { message: 'Incorrect API key provided' } }));
    const provider = new OpenAIModelProvider({
      baseUrl: server.baseUrl,
      model: 'm',
      apiKey: key,
      headers: { 'x-tenant': header },
    });
    const failed = await send(provider).catch((error: unknown) => error);
    // The key and the header were sent, and the error names neither.
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: `Bearer ${key}`,
      'x-tenant': header,
    });
    expect(OpenAIModelProviderError.is(failed, 'WEFT_OPENAI_HTTP_STATUS')).toBe(true);
    expect((failed as Error).message).toContain('401 Unauthorized: Incorrect API key provided');
    expect((failed as Error).message).not.toMatch(/4242|secret/);
  });

  it('shows in its options table the defaults the provider applies [claim:oai-defaults-table]', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [name, value] of Object.entries(DEFAULTS)) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      const shown = row?.split('|')[3]?.trim() ?? '';
      // `30000`, `'openai'`, or `10485760` (10 MiB): the value in the first backticks.
      const code = /^`([^`]+)`/.exec(shown)?.[1];
      expect(code, `the README's default of ${name}`).toBe(
        typeof value === 'string' ? `'${value}'` : String(value),
      );
    }
  });

  it('shows the same defaults in the options table of the model providers overview [claim:mpo-defaults-table]', () => {
    const page = readFileSync(
      new URL('../../../docs/model-providers/overview.md', import.meta.url),
      'utf8',
    );
    // The ModelProvider class table above it has an `id` row too.
    const section = page.slice(page.indexOf('## OpenAIModelProvider'));
    for (const [name, value] of Object.entries(DEFAULTS)) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      const code = /^`([^`]+)`/.exec(row?.split('|')[2]?.trim() ?? '')?.[1];
      expect(code, `the overview's default of ${name}`).toBe(
        typeof value === 'string' ? `'${value}'` : String(value),
      );
    }
  });
});
