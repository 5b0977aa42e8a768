/**
 * The defaults the README's options table gives, as figures: a test that compared the code with
 * its own constants would pass whatever they were.
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options.js';

describe('McpPlugin options left out', () => {
  it('give starting a server and listing its tools 10000 ms [claim:mcp-connect-timeout]', () => {
    const resolved = resolveOptions({
      servers: [{ name: 'files', command: process.execPath, tools: ['read'] }],
    });
    expect(resolved.connectTimeoutMs).toBe(10_000);
  });
});
