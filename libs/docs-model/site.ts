/**
 * Site identity and every external link, defined once.
 *
 * The Docusaurus config, the pages and the asset scripts import from here, so a
 * changed URL or name is one edit. Nothing else in the site spells these values.
 */

export const site = {
  title: 'Weft',
  tagline: 'Build AI agents with ease',
  description:
    'Weft is a TypeScript framework for building AI agents from plugins, model providers and a memory provider.',
  /** Production origin, without a trailing slash. */
  url: 'https://weft-ai.github.io',
  baseUrl: '/',
  organizationName: 'weft-ai',
  projectName: 'weft',
  copyright: 'Weft AI 2025 - a Weft Labs product',
  /** Published by the site itself; built from whitepaper/whitepaper.md. */
  whitepaperPath: '/whitepaper.pdf',
  themeColor: '#111412',
} as const;

export const links = {
  repository: 'https://github.com/weft-ai/weft',
  chat: 'https://discord.gg/weft',
  social: 'https://x.com/weft_ai',
} as const;

/** Base for "Edit this page" links; doc paths are appended by Docusaurus. */
export const editUrl = `${links.repository}/edit/main/`;

/** Where a first-party package's sources and README live on the repository. */
export function packageSourceUrl(directory: string): string {
  return `${links.repository}/tree/main/packages/${directory}`;
}

export const announcement = {
  id: 'bounty-program',
  /** Dark green background with light green text (10.4:1 contrast, WCAG AAA). */
  backgroundColor: '#0f3d24',
  textColor: '#c8f7d8',
} as const;
