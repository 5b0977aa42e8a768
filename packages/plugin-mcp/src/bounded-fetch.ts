/**
 * A fetch for the streamable HTTP transport that stops reading an answer at a byte limit, so a
 * server cannot make the agent hold a huge response in memory. The SDK's stdio transport has
 * its own limit (`maxBufferSize`); this is the HTTP side's.
 */

/**
 * The message of the error a too-large answer's read fails with. The connection learns of the
 * cut from `onOversized`, not from this text, which only tells a reader of the log what happened.
 */
export const OVERSIZED_MESSAGE = 'MCP answer exceeded the byte limit';

/**
 * Wraps `fetch` so that the body of each answer to a POST (the answers to calls) errors once
 * more than `limitBytes` bytes have arrived. GET streams (server notifications) are left alone.
 *
 * @param limitBytes - The most bytes one answer may have.
 * @param onOversized - Called when an answer is cut, before the read fails.
 */
export function boundedFetch(
  limitBytes: number,
  onOversized: () => void,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (init?.method !== 'POST' || response.body === null) return response;
    let received = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limitBytes) {
          onOversized();
          controller.error(new Error(OVERSIZED_MESSAGE));
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
