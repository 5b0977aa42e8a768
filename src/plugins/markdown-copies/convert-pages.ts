/**
 * The Markdown copies, llms.txt and llms-full.txt, made by @signalwire/docusaurus-plugin-llms-txt
 * from the built pages, in a worker thread of their own (./conversion-worker.ts).
 *
 * Docusaurus runs every plugin's postBuild at once, on one thread: converting every page's HTML,
 * the longest of them, held up the search index and the social cards while the second processor
 * idled.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type llmsTxtPlugin from '@signalwire/docusaurus-plugin-llms-txt';
import cleanDocusaurusHtml from './clean-docusaurus-html';

export type LlmsTxtOptions = NonNullable<Parameters<typeof llmsTxtPlugin>[1]>;
export type PostBuildProps = Parameters<
  NonNullable<ReturnType<typeof llmsTxtPlugin>['postBuild']>
>[0];

/** What the converter reads of a build, all of it plain data that a worker can be given. */
export interface Conversion {
  options: LlmsTxtOptions;
  siteDir: string;
  generatedFilesDir: string;
  outDir: string;
  siteConfig: { url: string; baseUrl: string; title: string; trailingSlash: boolean | undefined };
  routes: PostBuildProps['routes'];
}

/** The converter's options with the site's cleaning step, which runs before its own. */
export function withCleaner(options: LlmsTxtOptions): LlmsTxtOptions {
  return {
    ...options,
    content: { ...options.content, beforeDefaultRehypePlugins: [cleanDocusaurusHtml] },
  };
}

/** The worker's module, which converts the pages it is given. */
const WORKER_ENTRY = path.join(__dirname, 'conversion-worker.ts');

/**
 * Loads the worker's module as Docusaurus loads the site's plugins, with `loadFreshModule`
 * (jiti): the module is TypeScript, and the converter an ES module whose own imports name no
 * file extension, which Node's loader refuses.
 */
const WORKER_BOOTSTRAP = `const { workerData } = require('node:worker_threads');
require(workerData.loader).loadFreshModule(workerData.entry);`;

/**
 * Converts the pages in a worker thread.
 *
 * @returns Once every copy is written; rejects with the converter's error when it fails.
 */
export function convertPages(conversion: Conversion): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_BOOTSTRAP, {
      eval: true,
      workerData: {
        loader: require.resolve('@docusaurus/utils'),
        entry: WORKER_ENTRY,
        conversion,
      },
    });
    let done = false;
    worker.once('message', () => {
      done = true;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (done) resolve();
      else
        reject(
          new Error(
            `markdown-copies: the conversion's worker ended (exit code ${code}) before it had written the copies.`,
          ),
        );
    });
  });
}
