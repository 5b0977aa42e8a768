/**
 * The links beside "Copy page" that hand a page to an assistant (src/components/CopyPage):
 * the prompts carry the page's Markdown copy address, and Cursor's install link carries the
 * same server entry as the set-up the docs show for after publication
 * (examples/mcp-docs/once-published.mcp.json); until then the Cursor link leads to the set-up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assistantPrompt,
  CHAT_LINKS,
  chatUrl,
  CURSOR_INSTALL_URL,
  CURSOR_LINK,
  CURSOR_SETUP_PATH,
  MCP_DOCS_ON_NPM,
} from '../../src/components/CopyPage/assistant-links';
import { PACKAGES_ON_NPM } from '@weft-internal/docs-model/catalogue/model';

const page = 'https://weft-ai.github.io/docs/guides/production.md';

describe('the assistant links of the copy-page bar', () => {
  it('open a new ChatGPT or Claude chat whose prompt points at the Markdown copy [claim:mcp-docs-open-in-assistants]', () => {
    expect(assistantPrompt(page)).toContain(page);
    const starts = Object.fromEntries(CHAT_LINKS);
    expect(Object.keys(starts)).toEqual(['Open in ChatGPT', 'Open in Claude']);
    const chatGpt = new URL(chatUrl(starts['Open in ChatGPT']!, page));
    expect(`${chatGpt.origin}${chatGpt.pathname}`).toBe('https://chatgpt.com/');
    expect(chatGpt.searchParams.get('q')).toBe(assistantPrompt(page));
    const claude = new URL(chatUrl(starts['Open in Claude']!, page));
    expect(`${claude.origin}${claude.pathname}`).toBe('https://claude.ai/new');
    expect(claude.searchParams.get('q')).toBe(assistantPrompt(page));
  });

  it('lead to the Cursor set-up from a clone while the package is not on npm [claim:mcp-docs-clone-not-on-npm] [claim:mcp-docs-cursor-link] [claim:cg-first-release-flags]', () => {
    // Until the release, the one-click install would add an `npx` command that answers E404.
    expect(MCP_DOCS_ON_NPM).toBe(PACKAGES_ON_NPM);
    expect(MCP_DOCS_ON_NPM).toBe(false);
    expect(CURSOR_LINK).toEqual({
      label: 'Set up docs in Cursor',
      href: CURSOR_SETUP_PATH,
      internal: true,
    });
    const [route, anchor] = CURSOR_SETUP_PATH.split('#');
    expect(route).toBe('/docs/guides/ai-assistants/');
    const guide = readFileSync(
      path.resolve(__dirname, '../../docs/guides/ai-assistants.md'),
      'utf8',
    );
    expect(guide).toMatch(new RegExp(`^### ${anchor![0]!.toUpperCase()}${anchor!.slice(1)}$`, 'm'));
    expect(guide).toContain('examples/mcp-docs/cursor.mcp.json');
  });

  it('install in Cursor the server entry of the documented set-up once published [claim:mcp-docs-cursor-link-after-release]', () => {
    const link = new URL(CURSOR_INSTALL_URL);
    expect(`${link.protocol}//${link.host}${link.pathname}`).toBe(
      'cursor://anysphere.cursor-deeplink/mcp/install',
    );
    const documented = JSON.parse(
      readFileSync(
        path.resolve(__dirname, '../../examples/mcp-docs/once-published.mcp.json'),
        'utf8',
      ),
    ) as { mcpServers: Record<string, unknown> };
    expect(link.searchParams.get('name')).toBe('weft-docs');
    const config: unknown = JSON.parse(
      Buffer.from(link.searchParams.get('config')!, 'base64').toString('utf8'),
    );
    expect(config).toEqual(documented.mcpServers['weft-docs']);
  });
});
