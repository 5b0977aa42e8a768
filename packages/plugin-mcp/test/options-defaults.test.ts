/**
 * The defaults the README's options table gives, as figures: a test that compared the code with
 * its own constants would pass whatever they were.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options.js';

describe('McpPlugin options left out', () => {
  it('give starting a server and listing its tools 10000 ms [claim:mcp-connect-timeout]', () => {
    const resolved = resolveOptions({
      servers: [{ name: 'files', command: process.execPath, tools: ['read'] }],
    });
    expect(resolved.connectTimeoutMs).toBe(10_000);
  });

  it('take a maxReconnectDelayMs below reconnectDelayMs as reconnectDelayMs [claim:mcp-readme-max-reconnect-floor]', () => {
    const servers = [{ name: 'files', command: process.execPath, tools: ['read'] }];
    expect(resolveOptions({ servers, reconnectDelayMs: 5_000 }).maxReconnectDelayMs).toBe(10_000);
    expect(
      resolveOptions({ servers, reconnectDelayMs: 5_000, maxReconnectDelayMs: 1_000 })
        .maxReconnectDelayMs,
    ).toBe(5_000);
  });
});

describe("the README's options table", () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  /** Option name to its Default cell, from the rows of the table headed "Option | Default". */
  const rows = new Map<string, string>();
  const table = readme.slice(readme.indexOf('| Option'));
  for (const line of table.split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [name = '', shown = ''] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    rows.set(name.replace(/`/g, ''), shown);
  }

  it('lists every option with the default resolveOptions applies [claim:mcpdoc-readme-options] [claim:mcp-option-defaults] [claim:mcp-max-result] [claim:mcp-reconnect-delay]', () => {
    const resolved = resolveOptions({
      servers: [{ name: 'files', command: process.execPath, tools: ['read'] }],
    }) as unknown as Record<string, unknown>;
    // The logger is not resolved: the plugin logs to it only until the runtime starts it.
    expect([...rows.keys()].sort()).toEqual([...Object.keys(resolved), 'logger'].sort());
    for (const [name, value] of Object.entries(resolved)) {
      if (typeof value !== 'number' && typeof value !== 'string') continue;
      expect({ name, shown: rows.get(name) }).toEqual({
        name,
        shown: `\`${JSON.stringify(value).replace(/"/g, "'")}\``,
      });
    }
    expect(rows.get('servers')).toBe('required');
  });
});
