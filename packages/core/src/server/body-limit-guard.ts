import * as zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import type { Request, Response } from 'express';

/**
 * What the body parser refuses a body over the limit with, in its own shape, which the error
 * answer turns into 413 `WEFT_BAD_REQUEST` naming the limit.
 */
function tooLarge(limit: number, length: number | undefined): Error {
  return Object.assign(new Error('request entity too large'), {
    type: 'entity.too.large',
    status: 413,
    statusCode: 413,
    expose: true,
    limit,
    ...(length === undefined ? {} : { length }),
  });
}

/**
 * Refuses a JSON body over `limit` bytes as soon as that is known, where the body parser would
 * read the whole body first (it drains a refused body before it answers, so a client sending a
 * large or endless one waits out `requestTimeout` and gets 408, not 413): at once when its
 * `Content-Length` says so, or the moment the bytes of a chunked body pass the limit. The answer
 * closes the connection, so what the client still sends is not read. The limit is on the bytes
 * a compressed body (`gzip`, `deflate`, `br` or `zstd`) inflates to: such a body is refused here once it has
 * sent twice the limit as it is (compression makes no honest body that much larger), or the
 * moment what it has sent so far inflates to more than the limit, without waiting for the rest.
 *
 * @param request - The request the parser is about to read.
 * @param response - Its response, marked to close the connection when the body is refused.
 * @param limit - The body limit, in bytes.
 * @param refuse - Called once, with the 413 error, when the body is refused.
 * @returns `'refused'` when the declared length is over the limit already (the parser must not
 *   be called then); otherwise a function that stops watching, to call when the parser is done.
 */
export function guardBodyLimit(
  request: Request,
  response: Response,
  limit: number,
  refuse: (error: Error) => void,
): 'refused' | (() => void) {
  // A body read already (by a parser of your own on `app`) is no longer the parser's to read.
  if (request.readableEnded) return () => {};
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  // Only a body the parser reads as JSON is its to refuse; another is dropped as it arrives.
  if (!request.is('application/json')) return () => {};
  // Past this many bytes as sent, the body is over the limit: a compressed one too.
  const cap = encoding === 'identity' ? limit : 2 * limit;
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > cap) {
    response.setHeader('Connection', 'close');
    refuse(tooLarge(limit, Number(declared)));
    return 'refused';
  }
  // The parser inflates a compressed body too, but reads all of it before it refuses one that
  // inflates past the limit: a copy inflated here, and dropped as it comes, says so at once.
  const inflater = inflaterFor(encoding);
  let done = false;
  const stop = (): void => {
    done = true;
    request.off('data', count);
    inflater?.destroy();
  };
  const refuseNow = (): void => {
    if (done) return;
    stop();
    response.setHeader('Connection', 'close');
    refuse(tooLarge(limit, undefined));
  };
  let inflated = 0;
  inflater?.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > limit) refuseNow();
  });
  // A body that does not inflate is the parser's to refuse, with its own 400.
  inflater?.on('error', () => inflater.destroy());
  let received = 0;
  const count = (chunk: Buffer | string): void => {
    received += chunk.length;
    // Node.js ends a body with a Content-Length at that length, which is within the cap.
    if (received > cap) {
      refuseNow();
      return;
    }
    if (inflater !== undefined && !inflater.destroyed) inflater.write(chunk);
  };
  if (declared === undefined || inflater !== undefined) request.on('data', count);
  return stop;
}

/**
 * A zlib stream that inflates a body of the `Content-Encoding` the parser inflates too: `gzip`,
 * `deflate`, `br`, and `zstd` on a Node.js whose `zlib` has it.
 */
function inflaterFor(encoding: string): Transform | undefined {
  if (encoding === 'gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  // Node.js 22.15 and 23.8 added zstd; the types of an older Node.js do not name it.
  const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
  if (encoding === 'zstd' && zstd !== undefined) return zstd();
  return undefined;
}
