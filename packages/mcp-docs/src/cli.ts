#!/usr/bin/env node
/**
 * `weft-docs-mcp`: loads the documentation bundle and serves it over stdio (the default) or
 * streamable HTTP. Stdout belongs to the protocol, so every message for people goes to stderr.
 */
import { loadDocsBundle } from './bundle.js';
import { parseCliOptions, USAGE } from './cli-options.js';
import { startHttpServer } from './http.js';
import { createDocsServer } from './server.js';
import { BoundedStdioTransport } from './stdio.js';

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2));
  if (options.help) {
    process.stderr.write(USAGE);
    return;
  }
  const bundle = await loadDocsBundle(options.dataFile);
  if (options.transport === 'http') {
    const running = await startHttpServer(bundle, {
      host: options.host,
      port: options.port,
      allowedHosts: options.allowedHosts,
    });
    process.stderr.write(`weft-docs-mcp ${bundle.version}: listening at ${running.url}\n`);
    const stop = (): void => {
      void running.close().finally(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const server = createDocsServer(bundle);
  await server.connect(new BoundedStdioTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
