import type { RequestHandler } from 'express';
import { WeftError } from '../errors/weft-error.js';
import { isBareJson } from './error-answer.js';

/**
 * The JSON body parser of a route with its own code for a body that is not JSON of an object
 * or array (the parser's `entity.parse.failed`, or the depth check's `WEFT_BAD_REQUEST`). Its
 * other refusals (too large, an unknown charset, a body cut short) are left as they are.
 */
export function bodyRefusedAs(parse: RequestHandler, code: string): RequestHandler {
  return (request, response, next) => {
    parse(request, response, (error?: unknown) => {
      const type = (error as { type?: unknown } | undefined)?.type;
      const notJson =
        type === 'entity.parse.failed' || WeftError.is<string>(error, 'WEFT_BAD_REQUEST');
      if (error === undefined || !notJson) {
        next(error);
        return;
      }
      // The first line of the parser's message, without a code of its own.
      const reason = isBareJson(error)
        ? 'not a bare string, number, boolean or null'
        : (error instanceof Error ? error.message : String(error))
            .split('\n')[0]
            ?.replace(/\s*\[WEFT_[A-Z0-9_]+\]$/, '');
      next(
        new WeftError(
          code,
          `The body must be JSON of an object or array, sent as application/json: ${reason}`,
          { status: 400, cause: error },
        ),
      );
    });
  };
}
