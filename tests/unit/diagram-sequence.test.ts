import { assert, describe, expect, it } from 'vitest';
import { printPalette } from '@weft-internal/diagrams/palette';
import {
  parseSequenceSpec,
  renderSequence,
  textWidth,
  type SequenceSpec,
} from '@weft-internal/diagrams/sequence';
import { readDiagram } from '@weft-internal/diagrams/svg';

const spec: SequenceSpec = {
  title: 'Ping & pong',
  description: 'A asks B; B answers <politely>.',
  participants: [
    { id: 'a', label: 'Alpha' },
    { id: 'b', label: 'Beta\nservice' },
    { id: 'c', label: 'Gamma' },
  ],
  events: [
    { from: 'a', to: 'b', label: 'ping' },
    { from: 'b', to: 'b', label: 'think' },
    {
      frame: 'loop',
      label: 'each item',
      events: [
        { from: 'b', to: 'c', label: 'fetch' },
        { from: 'c', to: 'b', label: 'item', reply: true },
      ],
    },
    { note: 'waits', over: 'c' },
    { from: 'b', to: 'a', label: 'pong', reply: true },
  ],
};

/** Distance between the centres of the first two participant boxes, read back from the drawing. */
function firstGap(svg: string): number {
  const [a, b] = [...svg.matchAll(/<rect x="([\d.]+)" y="12" width="([\d.]+)"/g)].map(
    ([, x, width]) => Number(x) + Number(width) / 2,
  );
  assert.isDefined(a, 'the drawing has no participant boxes');
  assert.isDefined(b, 'the drawing has only one participant box');
  return b - a;
}

describe('parseSequenceSpec', () => {
  it('accepts a well-formed description', () => {
    expect(parseSequenceSpec(structuredClone(spec), 'x.sequence.json')).toEqual(spec);
  });

  it('names the file and the unknown participant of a message', () => {
    const bad = { ...spec, events: [{ from: 'a', to: 'zeta', label: 'hello' }] };
    expect(() => parseSequenceSpec(bad, 'x.sequence.json')).toThrow(
      'x.sequence.json: message "hello" names unknown participant "zeta"',
    );
  });

  it('checks events inside frames too', () => {
    const bad = {
      ...spec,
      events: [{ frame: 'opt', label: 'maybe', events: [{ from: 'q', to: 'a', label: 'x' }] }],
    };
    expect(() => parseSequenceSpec(bad, 's.json')).toThrow('unknown participant "q"');
  });

  it('requires the text alternative', () => {
    expect(() => parseSequenceSpec({ ...spec, description: ' ' }, 's.json')).toThrow(
      '"description" must be a non-empty string',
    );
  });

  it('refuses duplicate participants', () => {
    const bad = { ...spec, participants: [...spec.participants, { id: 'a', label: 'Again' }] };
    expect(() => parseSequenceSpec(bad, 's.json')).toThrow('participant "a" is listed twice');
  });
});

describe('renderSequence', () => {
  const svg = renderSequence(spec, printPalette);

  it('carries an escaped title and description and the img role', () => {
    expect(svg).toContain('role="img"');
    expect(readDiagram(svg)).toMatchObject({
      title: 'Ping & pong',
      description: 'A asks B; B answers <politely>.',
    });
    expect(svg).toContain('&lt;politely&gt;');
  });

  it('draws every participant, label, message and frame', () => {
    for (const label of [
      'Alpha',
      'Beta',
      'service',
      'Gamma',
      'ping',
      'think',
      'fetch',
      'item',
      'pong',
      'waits',
    ]) {
      expect(svg).toContain(`>${label}</text>`);
    }
    expect(svg).toContain('>loop</text>');
    expect(svg).toContain('>[each item]</text>');
    // Two replies are dashed lines with open arrowheads; the two calls end in filled heads.
    expect(svg.match(/<line [^>]*stroke-dasharray="6 4"/g)).toHaveLength(2);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg.match(/<polygon /g)).toHaveLength(3);
  });

  it('spaces participants far enough apart for the labels between them', () => {
    const long = 'a very long message label that needs room';
    const wide = renderSequence(
      { ...spec, events: [{ from: 'a', to: 'b', label: long }] },
      printPalette,
    );
    const wideGap = firstGap(wide);
    expect(wideGap).toBeGreaterThanOrEqual(textWidth(long));
    expect(textWidth(long)).toBeGreaterThan(long.length * 13 * 0.5);
    expect(firstGap(svg)).toBeLessThan(wideGap);
  });

  it('makes the drawing wide enough for everything in it', () => {
    const { width } = readDiagram(svg);
    const rightmost = Math.max(
      ...[...svg.matchAll(/<rect x="([\d.]+)"[^>]* width="([\d.]+)"/g)].map(
        ([, x, w]) => Number(x) + Number(w),
      ),
    );
    expect(width).toBeGreaterThanOrEqual(rightmost);
  });

  it('fills the backdrop only when the palette has a background', () => {
    expect(svg).toContain('<rect width="100%" height="100%" fill="#ffffff"/>');
    expect(renderSequence(spec, { ...printPalette, background: 'none' })).not.toContain(
      'height="100%"',
    );
  });
});
