import { describe, expect, it } from 'vitest';
import { addPlainTitle, unescapeMarkdown } from '@weft-internal/docs-model/typedoc';

describe('API page titles', () => {
  it('removes markdown escapes', () => {
    expect(unescapeMarkdown('TEXT\\_GENERATION\\_CAPABILITY')).toBe('TEXT_GENERATION_CAPABILITY');
    expect(unescapeMarkdown('Space\\<T\\>')).toBe('Space<T>');
    expect(unescapeMarkdown('a\\\\b')).toBe('a\\b');
  });

  it('adds a plain front matter title to a heading with escapes', () => {
    expect(addPlainTitle('# Variable: TEXT\\_GENERATION\\_CAPABILITY\n\nText.\n')).toBe(
      '---\ntitle: "Variable: TEXT_GENERATION_CAPABILITY"\n---\n\n# Variable: TEXT\\_GENERATION\\_CAPABILITY\n\nText.\n',
    );
  });

  it('leaves other pages alone', () => {
    expect(addPlainTitle('# Class: Runtime\n\nText.\n')).toBe('# Class: Runtime\n\nText.\n');
    expect(addPlainTitle('---\ntitle: x\n---\n# A\\_B\n')).toBe('---\ntitle: x\n---\n# A\\_B\n');
  });
});
