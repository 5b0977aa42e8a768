// serve-handler (the static file handler behind `docusaurus serve`) ships no type declarations;
// this covers the part of its API that tests/e2e/support/static-server.ts uses.
declare module 'serve-handler' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ServeHandlerOptions {
    public?: string;
    cleanUrls?: boolean | string[];
    trailingSlash?: boolean;
    directoryListing?: boolean | string[];
    headers?: { source: string; headers: { key: string; value: string }[] }[];
  }

  export default function serveHandler(
    request: IncomingMessage,
    response: ServerResponse,
    options?: ServeHandlerOptions,
  ): Promise<void>;
}
