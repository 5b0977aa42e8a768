/**
 * The install and create commands users type are npm / pnpm / yarn / bun tabs in the built
 * pages, each tab in its manager's words, and the plugins page carries every card's command for
 * each manager in its HTML (its switch is CSS, so the commands must be there without a script).
 * tests/e2e/reader-docs.spec.ts checks in a browser that a choice applies to every block.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  commandsByManager,
  PACKAGE_MANAGERS,
  type PackageManager,
} from '../../src/config/package-manager-commands';
import { assertBuildExists, readRouteHtml } from './support/build-output';

beforeAll(assertBuildExists);

/** The text of an HTML fragment: tags dropped, line breaks kept, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .join('\n');
}

interface TabGroup {
  labels: string[];
  /** Each panel's code, in tab order. */
  code: string[];
}

/** The tab groups of a page: each tab list, with the code blocks up to the next tab list. */
function tabGroups(route: string): TabGroup[] {
  const html = readRouteHtml(route);
  const article = html.slice(html.indexOf('<article'), html.lastIndexOf('</article>'));
  return article
    .split(/<ul[^>]*role="?tablist"?[\s>]/)
    .slice(1)
    .map((part) => {
      const list = part.slice(0, part.indexOf('</ul>'));
      const labels = [...list.matchAll(/<li[^>]*role="?tab"?[\s>][^>]*>([^<]*)/g)].map(
        (match) => textOf(match[1] ?? ''),
      );
      const code = [...part.matchAll(/<pre[^>]*>([\s\S]*?)<\/pre>/g)]
        .slice(0, labels.length)
        .map((match) => textOf(match[1] ?? ''));
      return { labels, code };
    });
}

const byManager = (group: TabGroup): Record<string, string> =>
  Object.fromEntries(group.labels.map((label, index) => [label, group.code[index] ?? '']));

describe('package manager tabs in the docs', () => {
  it.each([
    [
      '/docs/getting-started/',
      {
        npm: 'npm create weft@latest my-agent',
        pnpm: 'pnpm create weft my-agent',
        yarn: 'yarn create weft my-agent',
        bun: 'bun create weft my-agent',
      },
    ],
    [
      '/docs/getting-started/',
      {
        npm: 'npm test\nnpm run dev',
        pnpm: 'pnpm test\npnpm dev',
        yarn: 'yarn test\nyarn dev',
        bun: 'bun run test\nbun run dev',
      },
    ],
    [
      '/docs/installation/',
      {
        npm: 'npm install zod@^4.1 pino@^9.7 express@^5.1 cors@^2.8\nnpm install -D @weft/testing',
        pnpm: 'pnpm add zod@^4.1 pino@^9.7 express@^5.1 cors@^2.8\npnpm add -D @weft/testing',
        yarn: 'yarn add zod@^4.1 pino@^9.7 express@^5.1 cors@^2.8\nyarn add --dev @weft/testing',
        bun: 'bun add zod@^4.1 pino@^9.7 express@^5.1 cors@^2.8\nbun add -d @weft/testing',
      },
    ],
    [
      '/docs/installation/',
      {
        npm: 'npm create weft@latest my-agent',
        pnpm: 'pnpm create weft my-agent',
        yarn: 'yarn create weft my-agent',
        bun: 'bun create weft my-agent',
      },
    ],
    [
      '/docs/installation/',
      {
        npm: 'npm install @weft/core @weft/model-openai',
        pnpm: 'pnpm add @weft/core @weft/model-openai',
        yarn: 'yarn add @weft/core @weft/model-openai',
        bun: 'bun add @weft/core @weft/model-openai',
      },
    ],
  ] as const)('%s shows %j', (route, expected) => {
    const groups = tabGroups(route).map(byManager);
    expect(groups).toContainEqual(expected);
  });

  it.each(['/docs/getting-started/', '/docs/installation/'])(
    '%s: every tab group is npm, pnpm, yarn, bun, converted alike',
    (route) => {
      const groups = tabGroups(route);
      expect(groups.length).toBeGreaterThanOrEqual(2);
      for (const group of groups) {
        expect(group.labels).toEqual([...PACKAGE_MANAGERS]);
        expect(byManager(group)).toEqual(commandsByManager(group.code[0] ?? ''));
      }
    },
  );
});

describe('the plugins page', () => {
  it('has each card install command for every package manager, npm shown first [claim:plugins-install-commands]', () => {
    const html = readRouteHtml('/plugins/');
    const commands = [
      ...html.matchAll(/<pre[^>]*data-package-manager="?(\w+)"?[^>]*>([\s\S]*?)<\/pre>/g),
    ].map((match) => ({ manager: match[1] as PackageManager, text: textOf(match[2] ?? '') }));
    const npmCommands = commands.filter((command) => command.manager === 'npm');
    expect(npmCommands.length).toBeGreaterThanOrEqual(6);
    expect(commands).toHaveLength(npmCommands.length * PACKAGE_MANAGERS.length);
    for (const [index, npm] of npmCommands.entries()) {
      const card = commands.slice(index * 4, index * 4 + 4);
      expect(Object.fromEntries(card.map((c) => [c.manager, c.text]))).toEqual(
        commandsByManager(npm.text),
      );
    }
    expect(commands).toContainEqual({ manager: 'bun', text: 'bun create weft my-agent' });
    expect(commands).toContainEqual({ manager: 'yarn', text: 'yarn add @weft/core' });
    // The switch: npm checked in the HTML itself, so the page is right before any script runs.
    const radios = [...html.matchAll(/<input[^>]*name="?package-manager"?[^>]*>/g)].map(
      (match) => match[0],
    );
    expect(radios.map((tag) => /value="?(\w+)/.exec(tag)?.[1])).toEqual([...PACKAGE_MANAGERS]);
    expect(radios.map((tag) => /\schecked[\s>=/]/.test(tag))).toEqual([true, false, false, false]);
  });
});
