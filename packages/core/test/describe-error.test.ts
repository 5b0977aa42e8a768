import { createServer, connect, type AddressInfo, type LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WeftError } from '../src/errors/weft-error.js';
import { describeError } from '../src/internal.js';

/** A port on 127.0.0.1 where nothing listens: one that was free a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The error Node.js gives for a refused connection to a name with an IPv6 and an IPv4 address. */
async function refusedOnTwoAddresses(port: number): Promise<Error> {
  const lookup: LookupFunction = (_hostname, _options, callback) => {
    (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
  };
  return new Promise((resolve) => {
    const socket = connect({ host: 'localhost', port, lookup, autoSelectFamily: true });
    socket.on('error', resolve);
  });
}

describe('describeError', () => {
  it("names each address's reason when a connection to a name with two addresses is refused, whose error has no message", async () => {
    const port = await closedPort();
    const refused = await refusedOnTwoAddresses(port);
    // What Node.js gives: no message of its own, one reason per address.
    expect(refused.message).toBe('');
    const described = describeError(new TypeError('fetch failed', { cause: refused }));
    expect(described).toMatch(
      new RegExp(`^fetch failed \\(.*connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`),
    );
    expect(describeError(refused)).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('names a repeated reason once, falls back to the code, and leaves a message it has alone', () => {
    const twice = new AggregateError([
      new Error('connect ETIMEDOUT'),
      new Error('connect ETIMEDOUT'),
    ]);
    expect(describeError(new TypeError('fetch failed', { cause: twice }))).toBe(
      'fetch failed (connect ETIMEDOUT)',
    );
    const codeOnly = Object.assign(new Error(''), { code: 'ECONNRESET' });
    expect(describeError(codeOnly)).toBe('ECONNRESET');
    expect(describeError(new Error('', { cause: new Error('disk full') }))).toBe('disk full');
    expect(describeError(new Error('write failed', { cause: new Error('disk full') }))).toBe(
      'write failed (disk full)',
    );
    expect(describeError(new Error('disk full', { cause: new Error('disk full') }))).toBe(
      'disk full',
    );
  });

  it('does not repeat a cause of several lines that a WeftError quotes, whose first line now ends with the code', () => {
    const node = new Error(
      "The module '/app/x.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115.",
    );
    const open = new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `Store: cannot open the database: ${describeError(node)}`,
      { cause: node },
    );
    const start = new WeftError(
      'WEFT_START_FAILED',
      `Runtime.start: memory provider "store" failed to initialise: ${describeError(open)}`,
      { cause: open },
    );
    expect(describeError(open)).toBe(
      "Store: cannot open the database: The module '/app/x.node' [WEFT_INVALID_ARGUMENT]\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115.",
    );
    expect(describeError(start)).toBe(start.message);
    expect(describeError(start).split('NODE_MODULE_VERSION 115.')).toHaveLength(2);
    // A cause that is not quoted is still appended, code marks and all.
    const other = new WeftError('WEFT_START_FAILED', 'Runtime.start: gave up', { cause: open });
    expect(describeError(other)).toBe(`${other.message} (${open.message})`);
  });
});
