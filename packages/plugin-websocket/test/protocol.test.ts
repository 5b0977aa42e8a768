/** Reading a client's frame: when a refusal can name the frame's id. */
import { describe, expect, it } from 'vitest';
import { parseClientFrame } from '../src/protocol.js';

describe('parseClientFrame', () => {
  it("names the frame's id when it has a readable one (1 to 64 characters), null otherwise [claim:tsdoc-ws-error-frame-id] [claim:tsdoc-ws-message-id]", () => {
    const frame = { type: 'message', room: 'r1', user: 'ada', message: 'hi' };
    const withId = (id: unknown) => parseClientFrame(JSON.stringify({ ...frame, id }));
    expect(withId('a'.repeat(64))).toMatchObject({ success: true });
    expect(withId('a'.repeat(65))).toMatchObject({
      success: false,
      id: null,
      error: expect.stringContaining('"id" must be at most 64 characters'),
    });
    expect(withId('')).toMatchObject({ success: false, id: null });
    expect(parseClientFrame(JSON.stringify({ ...frame, id: '7', room: '' }))).toMatchObject({
      success: false,
      id: '7',
    });
    expect(parseClientFrame('[1]')).toMatchObject({ success: false, id: null });
  });
});
