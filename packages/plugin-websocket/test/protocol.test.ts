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

  it('counts the id in characters (code points), not in UTF-16 units: 😀, two units, counts as one of the 64 [claim:wsreadme-id] [claim:tsdoc-ws-message-id]', () => {
    const frame = { type: 'message', room: 'r1', user: 'ada', message: 'hi' };
    const withId = (id: string) => parseClientFrame(JSON.stringify({ ...frame, id }));
    expect('😀'.length).toBe(2);
    expect(withId('😀'.repeat(64))).toMatchObject({ success: true });
    expect(withId('😀'.repeat(65))).toMatchObject({
      success: false,
      id: null,
      error: expect.stringContaining('"id" must be at most 64 characters'),
    });
  });

  it('refuses a frame that is not JSON, not a message frame, or has a field missing, not a string, empty, too long or not an id [claim:errors-ws-invalid-frame-fields]', () => {
    const frame = { type: 'message', id: '7', room: 'r1', user: 'ada', message: 'hi' };
    const refusal = (changes: Record<string, unknown>) =>
      parseClientFrame(JSON.stringify({ ...frame, ...changes }));
    expect(parseClientFrame('{"type":')).toMatchObject({
      success: false,
      error: expect.stringMatching(/not JSON/),
    });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'hello' }, /"type" must be "message"/],
      [{ room: undefined }, /"room" is required/],
      [{ user: 7 }, /"user" must be a string/],
      [{ message: '' }, /"message" must not be empty/],
      [{ message: 'x'.repeat(8001) }, /"message" must be at most 8000 characters/],
      [{ room: 'r'.repeat(65) }, /"room" must be at most 64 characters/],
      [{ user: 'ada lovelace' }, /"user" must be a user id/],
    ];
    for (const [changes, named] of cases) {
      const parsed = refusal(changes);
      expect(parsed).toMatchObject({ success: false, id: '7' });
      expect(parsed.success ? '' : parsed.error).toMatch(named);
    }
    expect(refusal({})).toMatchObject({ success: true });
  });

  it('refuses a frame whose room and user are too long together for a space id, naming the frame [claim:errors-ws-invalid-frame-space-too-long]', () => {
    // Each "-" takes 3 of the space id's 200 characters: two ids of 64 valid characters do not fit.
    const long = `a${'-'.repeat(63)}`;
    const parsed = parseClientFrame(
      JSON.stringify({ type: 'message', id: '7', room: long, user: long, message: 'hi' }),
    );
    expect(parsed).toMatchObject({
      success: false,
      id: '7',
      error: expect.stringMatching(/^Invalid frame: "room" and "user" are too long together/),
    });
  });

  it("checks the room against the sender the server names instead of the frame's user [claim:errors-ws-invalid-frame-space-too-long] [claim:wsreadme-parse-sender]", () => {
    // The room fits with "ada" (exactly 200 characters), not with the long user.
    const room = `r${'-'.repeat(60)}`;
    const long = `u${'_'.repeat(63)}`;
    const frame = (user: string) =>
      JSON.stringify({ type: 'message', id: '7', room, user, message: 'hi' });
    // The frame's user is ignored when the server names the sender: only the sender must fit.
    expect(parseClientFrame(frame(long), 'ada')).toMatchObject({
      success: true,
      frame: { room, user: long },
    });
    expect(parseClientFrame(frame('ada'), long)).toMatchObject({
      success: false,
      id: '7',
      error: expect.stringMatching(/^Invalid frame: "room" is too long for this user/),
    });
  });
});
