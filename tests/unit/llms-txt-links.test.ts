/**
 * The link llms.txt gives to the docs MCP server: an assistant reading llms.txt may run the
 * command it names, so until the packages are on the npm registry it names the route from a
 * clone rather than `npx`, which answers E404.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGES_ON_NPM } from '@weft-internal/docs-model/catalogue/model';
import { describe, expect, it } from 'vitest';
import { mcpDocsLink } from '../../src/config/llms-txt-links';

const root = path.resolve(__dirname, '../..');

describe("llms.txt's link to the docs MCP server", () => {
  it('points at the Markdown copy of the AI-assistants guide', () => {
    const { url } = mcpDocsLink();
    expect(url).toBe('/docs/guides/ai-assistants.md');
    expect(existsSync(path.join(root, url))).toBe(true);
  });

  it('names npx only once the packages are on the npm registry, and the clone until then [claim:cg-first-release-flags]', () => {
    const before = mcpDocsLink(false).description;
    expect(before).toMatch(/^build it in a clone of the repository/);
    expect(before).toContain('`npx -y @weft/mcp-docs` answers E404');
    expect(mcpDocsLink(true).description).toMatch(/^run `npx -y @weft\/mcp-docs` to give/);
    // The site's own link follows the catalogue's flag.
    expect(mcpDocsLink()).toEqual(mcpDocsLink(PACKAGES_ON_NPM));
  });

  it('names the five tools the server offers', () => {
    const tools = readFileSync(path.join(root, 'packages/mcp-docs/src/tools.ts'), 'utf8');
    const registered = [...tools.matchAll(/registerTool\(\s*'([a-z_]+)'/g)].map(
      (match) => match[1],
    );
    expect(registered).toHaveLength(5);
    for (const onNpm of [false, true]) {
      for (const name of registered) expect(mcpDocsLink(onNpm).description).toContain(name!);
    }
  });
});
