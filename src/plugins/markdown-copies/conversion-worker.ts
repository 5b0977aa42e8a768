/**
 * Worker thread: converts the built pages it is given (./convert-pages.ts starts it) and posts
 * one message when every copy is written. A failure ends the worker with the converter's error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadContext } from '@docusaurus/types';
import llmsTxtPlugin from '@signalwire/docusaurus-plugin-llms-txt';
import { withCleaner, type Conversion, type PostBuildProps } from './convert-pages';

async function convert(conversion: Conversion): Promise<void> {
  const { siteDir, generatedFilesDir, outDir, siteConfig, routes } = conversion;
  // The converter reads these fields of its context and of postBuild's props, and no others.
  const context = { siteDir, generatedFilesDir, outDir, siteConfig } as unknown as LoadContext;
  const props = { ...context, routes } as unknown as PostBuildProps;
  await llmsTxtPlugin(context, withCleaner(conversion.options)).postBuild?.(props);
}

const port = parentPort;
if (port) {
  // A rejection here is unhandled, which ends the worker with its error: convertPages rejects.
  void convert((workerData as { conversion: Conversion }).conversion).then(() =>
    port.postMessage('done'),
  );
}
