/**
 * The head script that settles the announcement bar's storage before React starts
 * (src/config/announcement-storage.ts): it uses Docusaurus's own keys, and it leaves storage as
 * Docusaurus's check would, so that check finds nothing to change after hydration.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  ANNOUNCEMENT_STORAGE_KEYS,
  announcementHeadScript,
} from '../../src/config/announcement-storage';

const { id: ID_KEY, dismissed: DISMISSED_KEY } = ANNOUNCEMENT_STORAGE_KEYS;

/** Runs the script for announcement `id` over `stored`, a localStorage's entries; returns them after. */
function runScript(id: string, stored: Record<string, string>): Record<string, string> {
  const entries = new Map(Object.entries(stored));
  const localStorage = {
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, String(value)),
  };
  runInNewContext(announcementHeadScript(id), { localStorage });
  return Object.fromEntries(entries);
}

describe('the announcement head script', () => {
  it("uses the keys of Docusaurus's announcement bar context [claim:cg-internals-tests-name-them]", () => {
    const context = readFileSync(
      path.resolve(
        __dirname,
        '../../node_modules/@docusaurus/theme-common/lib/contexts/announcementBar.js',
      ),
      'utf8',
    );
    for (const key of [ID_KEY, DISMISSED_KEY]) {
      expect(context, `theme-common's announcementBar context no longer uses "${key}"`).toContain(
        `createStorageSlot('${key}')`,
      );
    }
  });

  it('on a first visit, stores the id and an undismissed bar', () => {
    expect(runScript('bounty-program', {})).toEqual({
      [ID_KEY]: 'bounty-program',
      [DISMISSED_KEY]: 'false',
    });
  });

  it('resets a dismissal made for another announcement', () => {
    expect(runScript('bounty-program', { [ID_KEY]: 'older', [DISMISSED_KEY]: 'true' })).toEqual({
      [ID_KEY]: 'bounty-program',
      [DISMISSED_KEY]: 'false',
    });
  });

  it('keeps a dismissal made for this announcement', () => {
    const stored = { [ID_KEY]: 'bounty-program', [DISMISSED_KEY]: 'true' };
    expect(runScript('bounty-program', stored)).toEqual(stored);
  });

  it('writes an id with quotes or markup as data, never as script or HTML', () => {
    expect(runScript(`it's "new"`, {})[ID_KEY]).toBe(`it's "new"`);
    const markup = '</script><script>alert(1)</script>';
    expect(announcementHeadScript(markup)).not.toContain('</');
    expect(runScript(markup, {})[ID_KEY]).toBe(markup);
  });

  it('does nothing, and throws nothing, when storage is unavailable', () => {
    const localStorage = {
      getItem: () => {
        throw new Error('storage disabled');
      },
    };
    expect(() =>
      runInNewContext(announcementHeadScript('bounty-program'), { localStorage }),
    ).not.toThrow();
  });
});
