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
 * closes the connection, so what the client still sends is not read. A compressed body is left
 * to the parser, which counts the bytes it inflates.
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
  if (encoding !== 'identity' || !request.is('application/json')) return () => {};
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (length > limit) {
      response.setHeader('Connection', 'close');
      refuse(tooLarge(limit, length));
      return 'refused';
    }
    // The parser itself refuses a body longer than it said it was.
    return () => {};
  }
  let received = 0;
  const count = (chunk: Buffer | string): void => {
    received += chunk.length;
    if (received <= limit) return;
    request.off('data', count);
    response.setHeader('Connection', 'close');
    refuse(tooLarge(limit, undefined));
  };
  request.on('data', count);
  return () => request.off('data', count);
}
