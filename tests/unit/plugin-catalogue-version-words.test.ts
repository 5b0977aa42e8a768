import { describe, expect, it } from 'vitest';
import { describeRange } from '@weft-internal/docs-model/catalogue/version-words';

describe('describeRange', () => {
  it('reads the Node.js range the packages declare as the releases a reader knows [claim:contributing-catalogue-node-in-words]', () => {
    expect(describeRange('^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0')).toBe(
      '20.19+, 22.12+, 24, 26',
    );
    expect(describeRange('^20.19.0 || ^24.0.0')).toBe('20.19+, 24');
  });

  it('keeps an exact version exact, and says "and later" for a lower bound', () => {
    expect(describeRange('0.1.0')).toBe('0.1.0');
    expect(describeRange('>=20')).toBe('20 and later');
    expect(describeRange('>= 20.19.0')).toBe('20.19.0 and later');
    expect(describeRange('*')).toBe('any version');
  });

  it('reads a caret range up to its first non-zero number, as npm does [claim:contributing-catalogue-core-in-words]', () => {
    expect(describeRange('^1.2.3')).toBe('1.2.3+');
    expect(describeRange('^0.1.0')).toBe('0.1');
    expect(describeRange('^0.1.4')).toBe('0.1.4+');
    expect(describeRange('^0.0.3')).toBe('0.0.3');
  });

  it('has no words for the forms it does not understand', () => {
    for (const range of ['~20.19.0', '20.x', '1.0.0 - 2.0.0', '>=0.1 <0.3', '^20', 'latest', '']) {
      expect(describeRange(range), range).toBeUndefined();
    }
  });
});
