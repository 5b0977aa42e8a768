/** The provider brings no HTTP client of its own: Node's fetch sends its requests. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OpenAIModelProvider } from '../src/index.js';
import { completion } from './chat-server.js';
import { chatServerPerTest, send } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

describe('the dependencies of OpenAIModelProvider', () => {
  it("has no HTTP dependency: it depends on the core and zod only, and calls Node's fetch [claim:mpo-fetch] [claim:oai-fetch]", async () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['@weft/core', 'zod']);
    const calls: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      calls.push(String(input));
      return original(input, init);
    };
    try {
      server.enqueue(completion('hi'));
      await send(new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm' }));
    } finally {
      globalThis.fetch = original;
    }
    expect(calls).toEqual([`${server.baseUrl}/chat/completions`]);
  });

  it('asks for Node.js 20.19 or later, 22.12 or later, 24 or 26, as its README says [claim:oai-node]', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { engines?: { node?: string } };
    // The figures the README gives, not the shared constant: a change to one must fail here.
    expect(manifest.engines?.node).toBe('^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0');
  });
});
