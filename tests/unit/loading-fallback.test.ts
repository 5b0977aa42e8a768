/**
 * The route-loading fallback (src/theme/Loading): nothing while a route's chunks load (no
 * spinner), and on failure the error text with a Retry button (SITE-REQUIREMENTS.md, "Error
 * screens"). Docusaurus preloads a route before rendering it, so a visitor rarely reaches this
 * screen; it is rendered here directly.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import Loading from '../../src/theme/Loading';

const render = (props: Partial<Parameters<typeof Loading>[0]>): string =>
  renderToStaticMarkup(
    createElement(Loading, {
      isLoading: true,
      pastDelay: false,
      timedOut: false,
      error: null,
      retry: () => undefined,
      ...props,
    }),
  );

describe('the route-loading fallback', () => {
  it('renders nothing while the chunks load, even past the delay [claim:cg-size-loading-fallback]', () => {
    expect(render({ pastDelay: false })).toBe('');
    expect(render({ pastDelay: true, timedOut: true })).toBe('');
  });

  it('shows the error text and a Retry button when loading failed [claim:cg-size-loading-fallback]', () => {
    const html = render({
      isLoading: false,
      pastDelay: true,
      error: new Error('Loading chunk 1234 failed.'),
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('Error: Loading chunk 1234 failed.');
    expect(html).toMatch(/<button type="button"[^>]*>Retry<\/button>/);
  });
});
