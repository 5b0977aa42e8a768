import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerManager } from '@weft/core/node';

// Middleware of the runtime's own express, whatever version of express's
// types the application has installed: the type of the server's body parser.
type RequestHandler = ServerManager['jsonBody'];

/**
 * Express middleware that lets a request through only when it carries
 * `Authorization: Bearer <token>` with the expected token, and answers 401
 * otherwise. Both tokens are hashed first so that the comparison takes the
 * same time whatever the length of the guess.
 */
export function requireBearerToken(expected: string): RequestHandler {
  if (expected.length < 32) {
    throw new Error(
      'requireBearerToken: the token must be at least 32 characters; generate one with `openssl rand -hex 32`.',
    );
  }
  const expectedDigest = sha256(expected);
  return (request, response, next) => {
    const match = /^Bearer (\S+)$/i.exec(request.get('authorization') ?? '');
    if (match?.[1] && timingSafeEqual(sha256(match[1]), expectedDigest)) {
      next();
      return;
    }
    response
      .status(401)
      .set('WWW-Authenticate', 'Bearer')
      .json({
        error: {
          status: 401,
          message: 'Unauthorized: send Authorization: Bearer <token>',
        },
      });
  };
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
