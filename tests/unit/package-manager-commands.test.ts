import { describe, expect, it } from 'vitest';
import {
  commandsByManager,
  convertNpmCommands,
  convertNpmLine,
} from '../../src/config/package-manager-commands';

describe('npm commands in each package manager', () => {
  it.each([
    [
      'npm create weft@latest my-agent',
      'pnpm create weft my-agent',
      'yarn create weft my-agent',
      'bun create weft my-agent',
    ],
    [
      'npm create weft@latest my-agent -- --model openai',
      'pnpm create weft my-agent --model openai',
      'yarn create weft my-agent --model openai',
      'bun create weft my-agent --model openai',
    ],
    ['npm install @weft/core', 'pnpm add @weft/core', 'yarn add @weft/core', 'bun add @weft/core'],
    [
      'npm install zod@^4.1 pino@^9.7',
      'pnpm add zod@^4.1 pino@^9.7',
      'yarn add zod@^4.1 pino@^9.7',
      'bun add zod@^4.1 pino@^9.7',
    ],
    ['npm install -D x', 'pnpm add -D x', 'yarn add --dev x', 'bun add -d x'],
    ['npm i --save-dev x', 'pnpm add -D x', 'yarn add --dev x', 'bun add -d x'],
    ['npm install', 'pnpm install', 'yarn install', 'bun install'],
    [
      'npm ci',
      'pnpm install --frozen-lockfile',
      'yarn install --frozen-lockfile',
      'bun install --frozen-lockfile',
    ],
    // `bun test` is bun's own test runner, not the project's test script.
    ['npm test', 'pnpm test', 'yarn test', 'bun run test'],
    ['npm start', 'pnpm start', 'yarn start', 'bun run start'],
    ['npm run dev', 'pnpm dev', 'yarn dev', 'bun run dev'],
    ['npm run x -- --watch', 'pnpm x --watch', 'yarn x --watch', 'bun run x --watch'],
  ])('%s', (npm, pnpm, yarn, bun) => {
    expect(commandsByManager(npm)).toEqual({ npm, pnpm, yarn, bun });
  });

  it('keeps lines that are not npm commands, and comments', () => {
    expect(
      convertNpmCommands('cd my-agent\nnpm install\n  npm test   # once\nnpx tsx main.ts', 'bun'),
    ).toBe('cd my-agent\nbun install\n  bun run test   # once\nnpx tsx main.ts');
  });

  it.each([
    ['npm publish', /no pnpm equivalent known for "npm publish"/],
    ['npm install --global x', /no pnpm equivalent known for "npm install --global x"/],
    ['npm run', /no pnpm equivalent known for "npm run"/],
    ['npm install -D', /nothing to convert in "npm install -D"/],
  ])('refuses %s rather than guess', (line, message) => {
    expect(() => convertNpmLine(line, 'pnpm')).toThrow(message);
  });
});
