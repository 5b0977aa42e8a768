import type { IncomingMessage } from 'node:http';

/**
 * What an HTTP/1.1 server would misread in a request, with the status it is answered: a request
 * line naming another major version (`HTTP/2.0`, `HTTP/0.9`), which Node.js would serve as
 * HTTP/1.1, gets 505; a body with a transfer coding other than `chunked` (`Transfer-Encoding:
 * gzip, chunked`), which Node.js undoes the chunking of but passes on still encoded, gets 501.
 * The runtime's server and the websocket plugin's upgrade both answer it with `WEFT_BAD_REQUEST`.
 *
 * @param request - The request, as Node.js parsed its head.
 * @returns The status and message of the answer, or `undefined` for a request the server reads.
 */
export function protocolRefusal(
  request: Pick<IncomingMessage, 'httpVersionMajor' | 'httpVersionMinor' | 'headers'>,
): { status: 501 | 505; message: string } | undefined {
  if (request.httpVersionMajor !== 1) {
    return {
      status: 505,
      message: `HTTP/${request.httpVersionMajor}.${request.httpVersionMinor} is not supported: this server speaks HTTP/1.1 and HTTP/1.0`,
    };
  }
  const codings = (request.headers['transfer-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'chunked');
  if (codings.length === 0) return undefined;
  return {
    status: 501,
    message: `Transfer-Encoding ${JSON.stringify(codings.join(', ').slice(0, 100))} is not supported: the server decodes only chunked; compress a body with Content-Encoding instead`,
  };
}
