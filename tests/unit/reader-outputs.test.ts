/**
 * The small pure parts behind the reader features: where a page's Markdown copy and social card
 * are served, how card titles wrap and which section a route belongs to, and the fix for links
 * the Markdown converter writes with a trailing slash.
 */
import { describe, expect, it } from 'vitest';
import { markdownCopyPath } from '../../src/components/CopyPage/markdown-path';
import { withoutTrailingSlashBeforeMd } from '../../src/plugins/markdown-copies/links';
import { pageTitle, sectionOf } from '../../src/plugins/social-cards';
import { socialCardPath } from '../../src/plugins/social-cards/card-path';
import { cardSvg, wrapTitle } from '../../src/plugins/social-cards/template';

describe('markdownCopyPath', () => {
  it.each([
    ['/docs/getting-started/', '/docs/getting-started.md'],
    ['/docs/', '/docs.md'],
    ['/api/classes/Runtime/', '/api/classes/Runtime.md'],
    ['/', '/index.md'],
  ])('%s → %s', (route, expected) => {
    expect(markdownCopyPath(route)).toBe(expected);
  });
});

describe('socialCardPath', () => {
  it.each([
    ['/', '/img/social/index.png'],
    ['/docs/getting-started/', '/img/social/docs/getting-started.png'],
    ['/404.html', '/img/social/404.png'],
  ])('%s → %s', (route, expected) => {
    expect(socialCardPath(route)).toBe(expected);
  });
});

describe('social card text', () => {
  const options = {
    sections: [
      { prefix: '/', exact: true, label: 'Home' },
      { prefix: '/docs/', label: 'Documentation' },
      { prefix: '/api/', label: 'API reference' },
    ],
    defaultSection: 'Weft',
  };

  it('labels a route with the first section that matches it', () => {
    expect(sectionOf('/', options)).toBe('Home');
    expect(sectionOf('/docs/getting-started/', options)).toBe('Documentation');
    expect(sectionOf('/api/classes/Runtime/', options)).toBe('API reference');
    expect(sectionOf('/plugins/', options)).toBe('Weft');
  });

  it('takes the title from <title>, without the site suffix, with entities decoded', () => {
    const html = '<head><title data-rh=true>Interface: Memory&lt;T&gt; | Weft</title></head>';
    expect(pageTitle(html, 'Weft')).toBe('Interface: Memory<T>');
    expect(pageTitle('<p>no title</p>', 'Weft')).toBeUndefined();
  });

  it('wraps long titles on at most three lines, ending a cut title with an ellipsis', () => {
    expect(wrapTitle('Transforms')).toEqual(['Transforms']);
    const lines = wrapTitle(
      'Memory providers: an overview of every store and how to write your own one today',
    );
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith('…')).toBe(true);
  });

  it('escapes the title in the SVG', () => {
    const svg = cardSvg({
      title: 'A <b> & "c"',
      section: 'Docs',
      siteTitle: 'Weft',
      siteHost: 'example.org',
    });
    expect(svg).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).not.toContain('<b>');
  });
});

describe('withoutTrailingSlashBeforeMd', () => {
  it('points links at the copy of a trailing-slash route', () => {
    expect(
      withoutTrailingSlashBeforeMd('[Runtime](/api/classes/Runtime/.md#start) and [x](/docs/.md)'),
    ).toBe('[Runtime](/api/classes/Runtime.md#start) and [x](/docs.md)');
  });

  it('leaves correct links and other text alone', () => {
    const text = '[a](/docs/getting-started.md) `path/.md` [b](https://example.org/x/.md)';
    expect(withoutTrailingSlashBeforeMd(text)).toBe(text);
  });
});
