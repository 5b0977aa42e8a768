/**
 * Draws a sequence diagram as SVG from a small JSON description: participants side by side,
 * a lifeline under each, messages as arrows between lifelines in order, replies dashed, and
 * frames (such as a loop) around groups of messages. Graphviz lays out graphs, not time, so
 * sequence diagrams get this renderer; it needs no browser and no font files, measuring text
 * with a fixed per-character width that errs on the wide side.
 */
import type { Palette } from './palette';
import { escapeXml, svgDocument } from './svg';

export interface Participant {
  id: string;
  /** Shown in the participant's box; `\n` breaks lines. */
  label: string;
}

export type SequenceEvent =
  | {
      from: string;
      to: string;
      label: string;
      /** A reply: drawn dashed, with an open arrowhead. */
      reply?: boolean;
    }
  | {
      /** The frame's kind, shown in its corner: `loop`, `opt`, `alt`... */
      frame: string;
      /** The condition, shown after the kind. */
      label: string;
      events: SequenceEvent[];
    }
  | {
      /** A remark drawn in a box over one participant's lifeline. */
      note: string;
      over: string;
    };

export interface SequenceSpec {
  /** Short name of the diagram; becomes the SVG's `<title>`. */
  title: string;
  /** What the diagram shows, in prose; becomes `<desc>` and the image's alt text. */
  description: string;
  participants: Participant[];
  events: SequenceEvent[];
}

const FONT_SIZE = 13;
// Wider than the average glyph of common sans-serif fonts, so labels never overrun.
const CHAR_WIDTH = FONT_SIZE * 0.56;
const LINE_HEIGHT = 17;
const MARGIN = 12;
const BOX_PADDING_X = 10;
const BOX_PADDING_Y = 8;
const MIN_GAP = 16;
const MESSAGE_GAP = 10;
const ARROW_SIZE = 7;
const SELF_WIDTH = 26;
const FRAME_HEADER = 24;
const FRAME_PADDING = 10;
const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, sans-serif";

/**
 * Checks a parsed JSON value and returns it as a sequence description.
 *
 * @param value - The parsed JSON.
 * @param source - The file it came from, for error messages.
 * @returns The description.
 * @throws Error naming the file and the first problem: a missing title, description or
 * participant, or an event that names an unknown participant.
 */
export function parseSequenceSpec(value: unknown, source: string): SequenceSpec {
  const fail = (problem: string): never => {
    throw new Error(`${source}: ${problem}`);
  };
  if (typeof value !== 'object' || value === null) fail('expected a JSON object');
  const spec = value as Partial<SequenceSpec>;
  for (const key of ['title', 'description'] as const) {
    if (typeof spec[key] !== 'string' || spec[key].trim() === '') {
      fail(`"${key}" must be a non-empty string (it is the diagram's text alternative)`);
    }
  }
  if (!Array.isArray(spec.participants) || spec.participants.length < 2) {
    fail('"participants" must list at least two { id, label } entries');
  }
  const ids = new Set<string>();
  for (const participant of spec.participants ?? []) {
    if (typeof participant?.id !== 'string' || typeof participant.label !== 'string') {
      fail(`every participant needs a string id and label, got ${JSON.stringify(participant)}`);
    }
    if (ids.has(participant.id)) fail(`participant "${participant.id}" is listed twice`);
    ids.add(participant.id);
  }
  const checkEvents = (events: unknown, where: string): void => {
    if (!Array.isArray(events) || events.length === 0) fail(`${where} must be a non-empty array`);
    for (const event of events as SequenceEvent[]) {
      if ('frame' in event) {
        checkEvents(event.events, `frame "${event.frame} ${event.label}" events`);
      } else if ('note' in event) {
        if (!ids.has(event.over)) fail(`note "${event.note}" is over unknown "${event.over}"`);
      } else {
        for (const end of [event.from, event.to]) {
          if (!ids.has(end)) fail(`message "${event.label}" names unknown participant "${end}"`);
        }
      }
    }
  };
  checkEvents(spec.events, '"events"');
  return spec as SequenceSpec;
}

/**
 * Width of a label in pixels, by the widest of its lines.
 *
 * @param label - The label; `\n` separates lines.
 * @returns The estimated width at the diagram's font size.
 */
export function textWidth(label: string): number {
  return Math.max(...label.split('\n').map((line) => line.length)) * CHAR_WIDTH;
}

function lineCount(label: string): number {
  return label.split('\n').length;
}

function flatten(events: SequenceEvent[]): SequenceEvent[] {
  return events.flatMap((event) => ('frame' in event ? flatten(event.events) : [event]));
}

/** Where a participant is drawn. */
interface Column {
  participant: Participant;
  /** Horizontal centre of the participant's box and lifeline. */
  centre: number;
  /** Width of the participant's box. */
  boxWidth: number;
}

/**
 * The item at a position the layout computed from the participants (a column, a box, the gap
 * after a box), so a miss means the layout lost track of them, not that the source is wrong.
 */
function itemAt<T>(items: readonly T[], position: number, what: string): T {
  const item = items[position];
  if (item === undefined) {
    throw new Error(
      `sequence diagrams: no ${what} at position ${position} of ${items.length}; the layout in libs/diagrams/sequence.ts and the participants disagree.`,
    );
  }
  return item;
}

/** Looks up a participant's position, counted from the left, by its id. */
function participantPositions(spec: SequenceSpec): (id: string) => number {
  const positions = new Map(spec.participants.map((participant, i) => [participant.id, i]));
  return (id) => {
    const position = positions.get(id);
    if (position === undefined) {
      throw new Error(
        `sequence diagram "${spec.title}": an event names participant "${id}", which is not listed; add it to "participants".`,
      );
    }
    return position;
  };
}

/** A column for each participant, wide enough for every label between them. */
function layoutColumns(spec: SequenceSpec): { columns: Column[]; trailing: number } {
  const positionOf = participantPositions(spec);
  const boxWidths = spec.participants.map((p) => textWidth(p.label) + 2 * BOX_PADDING_X);
  let gaps = boxWidths
    .slice(1)
    .map((width, i) => (itemAt(boxWidths, i, 'box') + width) / 2 + MIN_GAP);
  const needs: { lo: number; hi: number; width: number }[] = [];
  for (const event of flatten(spec.events)) {
    if ('note' in event) {
      const at = positionOf(event.over);
      needs.push({ lo: at, hi: at + 1, width: textWidth(event.note) / 2 + BOX_PADDING_X * 2 });
      continue;
    }
    if ('frame' in event) continue;
    const a = positionOf(event.from);
    const b = positionOf(event.to);
    if (a === b) needs.push({ lo: a, hi: a + 1, width: textWidth(event.label) + SELF_WIDTH + 12 });
    else needs.push({ lo: Math.min(a, b), hi: Math.max(a, b), width: textWidth(event.label) + 16 });
  }
  // Narrow spans first, so a long message across many columns widens them all a little.
  needs.sort((x, y) => x.hi - x.lo - (y.hi - y.lo));
  let trailing = 0;
  for (const { lo, hi, width } of needs) {
    if (hi > gaps.length) {
      // A self-message or note on the last participant extends the drawing to the right.
      trailing = Math.max(trailing, width - itemAt(boxWidths, lo, 'box') / 2);
      continue;
    }
    const have = gaps.slice(lo, hi).reduce((sum, gap) => sum + gap, 0);
    if (have < width) {
      const add = (width - have) / (hi - lo);
      gaps = gaps.map((gap, i) => (i >= lo && i < hi ? gap + add : gap));
    }
  }
  const columns: Column[] = [];
  let centre = MARGIN + itemAt(boxWidths, 0, 'box') / 2;
  for (const [i, participant] of spec.participants.entries()) {
    if (i > 0) centre += itemAt(gaps, i - 1, 'gap');
    columns.push({ participant, centre, boxWidth: itemAt(boxWidths, i, 'box') });
  }
  return { columns, trailing };
}

/**
 * Renders a sequence diagram.
 *
 * @param spec - The diagram, as checked by {@link parseSequenceSpec}.
 * @param palette - The colours to draw in.
 * @returns A standalone SVG document with `<title>`, `<desc>` and `role="img"`.
 */
export function renderSequence(spec: SequenceSpec, palette: Palette): string {
  const { columns, trailing } = layoutColumns(spec);
  const column = (position: number): Column => itemAt(columns, position, 'participant column');
  const positionOf = participantPositions(spec);
  const last = column(columns.length - 1);
  const boxHeight = Math.max(...spec.participants.map((p) => lineCount(p.label))) * LINE_HEIGHT;
  const headerHeight = boxHeight + 2 * BOX_PADDING_Y;
  const body: string[] = [];
  const frames: string[] = [];
  let right = last.centre + last.boxWidth / 2;
  let y = MARGIN + headerHeight + 16;

  const text = (x: number, top: number, label: string, anchor: string, fill: string): string =>
    label
      .split('\n')
      .map(
        (line, i) =>
          `<text x="${x.toFixed(1)}" y="${(top + (i + 1) * LINE_HEIGHT - 4).toFixed(1)}" text-anchor="${anchor}" fill="${fill}">${escapeXml(line)}</text>`,
      )
      .join('');

  const arrowHead = (x: number, at: number, direction: 1 | -1, open: boolean): string => {
    const back = x - direction * ARROW_SIZE * 1.4;
    const points = `${back.toFixed(1)},${(at - ARROW_SIZE / 1.6).toFixed(1)} ${x.toFixed(1)},${at.toFixed(1)} ${back.toFixed(1)},${(at + ARROW_SIZE / 1.6).toFixed(1)}`;
    return open
      ? `<polyline points="${points}" fill="none" stroke="${palette.muted}" stroke-width="1.5"/>`
      : `<polygon points="${points}" fill="${palette.accent}"/>`;
  };

  /** Draws events from the current y down; returns the column range they touched. */
  const draw = (events: SequenceEvent[], depth: number): { lo: number; hi: number } => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const event of events) {
      if ('frame' in event) {
        const top = y;
        y += FRAME_HEADER + 6;
        const range = draw(event.events, depth + 1);
        y += FRAME_PADDING - 4;
        // Nested frames sit inside their parent: each level is inset a little further.
        const inset = FRAME_PADDING * (1 + depth);
        const leftmost = column(range.lo);
        const rightmost = column(range.hi);
        const x0 = leftmost.centre - leftmost.boxWidth / 2 + inset - 4;
        const tag = `${event.frame}`;
        const tagWidth = textWidth(tag) + 16;
        const minWidth = tagWidth + textWidth(`[${event.label}]`) + 20;
        const x1 = Math.max(rightmost.centre + rightmost.boxWidth / 2 - inset + 4, x0 + minWidth);
        right = Math.max(right, x1);
        frames.push(
          `<rect x="${x0.toFixed(1)}" y="${top.toFixed(1)}" width="${(x1 - x0).toFixed(1)}" height="${(y - top).toFixed(1)}" fill="${palette.surfaceRaised}" fill-opacity="0.45" stroke="${palette.border}" stroke-width="1.5" rx="4"/>`,
          `<path d="M${x0.toFixed(1)},${(top + FRAME_HEADER - 4).toFixed(1)} h${(tagWidth - 6).toFixed(1)} l6,-6 v${-(FRAME_HEADER - 10)}" fill="none" stroke="${palette.border}" stroke-width="1.5"/>`,
          text(x0 + 8, top + 1, tag, 'start', palette.text).replace(
            '<text ',
            '<text font-weight="700" ',
          ),
          text(x0 + tagWidth + 6, top + 1, `[${event.label}]`, 'start', palette.muted),
        );
        y += 10;
        lo = Math.min(lo, range.lo);
        hi = Math.max(hi, range.hi);
        continue;
      }
      if ('note' in event) {
        const at = positionOf(event.over);
        const { centre } = column(at);
        const width = textWidth(event.note) + 2 * BOX_PADDING_X;
        const height = lineCount(event.note) * LINE_HEIGHT + 8;
        body.push(
          `<rect x="${(centre - width / 2).toFixed(1)}" y="${y.toFixed(1)}" width="${width.toFixed(1)}" height="${height}" fill="${palette.surface}" stroke="${palette.muted}" stroke-dasharray="3 3" rx="3"/>`,
          text(centre, y + 4, event.note, 'middle', palette.muted),
        );
        right = Math.max(right, centre + width / 2);
        y += height + MESSAGE_GAP;
        lo = Math.min(lo, at);
        hi = Math.max(hi, at);
        continue;
      }
      const from = positionOf(event.from);
      const to = positionOf(event.to);
      const labelHeight = lineCount(event.label) * LINE_HEIGHT;
      const stroke = event.reply ? palette.muted : palette.accent;
      const dash = event.reply ? ' stroke-dasharray="6 4"' : '';
      if (from === to) {
        const x = column(from).centre;
        body.push(text(x + SELF_WIDTH + 8, y, event.label, 'start', palette.text));
        const top = y + labelHeight / 2 - 2;
        const bottom = top + 16;
        body.push(
          `<path d="M${x.toFixed(1)},${top.toFixed(1)} h${SELF_WIDTH} v16 h${-SELF_WIDTH + ARROW_SIZE}" fill="none" stroke="${stroke}" stroke-width="1.5"${dash}/>`,
          arrowHead(x, bottom, -1, Boolean(event.reply)),
        );
        right = Math.max(right, x + SELF_WIDTH + 8 + textWidth(event.label));
        y = Math.max(y + labelHeight, bottom) + MESSAGE_GAP + 4;
      } else {
        const x1 = column(from).centre;
        const x2 = column(to).centre;
        const direction = x2 > x1 ? 1 : -1;
        body.push(text((x1 + x2) / 2, y, event.label, 'middle', palette.text));
        const at = y + labelHeight + 4;
        body.push(
          `<line x1="${x1.toFixed(1)}" y1="${at.toFixed(1)}" x2="${(x2 - direction * 2).toFixed(1)}" y2="${at.toFixed(1)}" stroke="${stroke}" stroke-width="1.5"${dash}/>`,
          arrowHead(x2, at, direction, Boolean(event.reply)),
        );
        y = at + MESSAGE_GAP + 2;
      }
      lo = Math.min(lo, from, to);
      hi = Math.max(hi, from, to);
    }
    return { lo, hi };
  };

  draw(spec.events, 0);
  const lifelineEnd = y + 4;
  const height = lifelineEnd + MARGIN;
  const width = Math.ceil(Math.max(right, last.centre + trailing) + MARGIN);

  const heads = columns.map(({ participant, centre, boxWidth }) => {
    const x = centre - boxWidth / 2;
    const top = MARGIN;
    const lines = lineCount(participant.label);
    const textTop = top + BOX_PADDING_Y + (boxHeight - lines * LINE_HEIGHT) / 2;
    return [
      `<line x1="${centre.toFixed(1)}" y1="${(top + headerHeight).toFixed(1)}" x2="${centre.toFixed(1)}" y2="${lifelineEnd.toFixed(1)}" stroke="${palette.border}" stroke-width="1.5" stroke-dasharray="2 4"/>`,
      `<rect x="${x.toFixed(1)}" y="${top}" width="${boxWidth.toFixed(1)}" height="${headerHeight}" fill="${palette.surface}" stroke="${palette.accent}" stroke-width="1.5" rx="6"/>`,
      text(centre, textTop, participant.label, 'middle', palette.text).replaceAll(
        '<text ',
        '<text font-weight="600" ',
      ),
    ].join('');
  });

  return svgDocument({
    width,
    height: Math.ceil(height),
    title: spec.title,
    description: spec.description,
    background: palette.background,
    fontFamily: FONT_FAMILY,
    fontSize: FONT_SIZE,
    content: [...frames, ...heads, ...body].join('\n'),
  });
}
