/**
 * The not-found page's note for a page under /api/ that the dev server left out: `npm start`
 * serves the API reference only with DEV_API_PAGES=true (src/config/api-in-dev.ts). Renders
 * nothing anywhere else, and nothing in a build, which has every API page.
 */
import type { CSSProperties, ReactNode } from 'react';
import { DEV_API_PAGES_COMMAND } from '../../config/api-in-dev-command';

export interface ApiLeftOutNoteProps {
  /** The path that was not found. */
  pathname: string;
  /** The site config's `customFields.apiPagesLeftOut`: true only under such a dev server. */
  apiPagesLeftOut: unknown;
}

/**
 * Inline rather than in a stylesheet: the note exists only under the dev server, and every
 * page's first-load CSS is on a byte budget (tests/build/javascript-budget.test.ts).
 */
const NOTE_STYLE: CSSProperties = {
  padding: '0.75rem 1rem',
  borderLeft: '4px solid var(--ifm-color-warning)',
  background: 'var(--weft-surface)',
};

export default function ApiLeftOutNote({
  pathname,
  apiPagesLeftOut,
}: ApiLeftOutNoteProps): ReactNode {
  if (apiPagesLeftOut !== true || !pathname.startsWith('/api/')) {
    return null;
  }
  return (
    <div className="container margin-top--md" role="note">
      <div className="row">
        <div className="col col--6 col--offset-3">
          <p style={NOTE_STYLE}>
            <code>npm start</code> leaves the API reference out, so this page is missing here but
            not on the published site. To see it, stop the dev server and start it with{' '}
            <code>{DEV_API_PAGES_COMMAND}</code>.
          </p>
        </div>
      </div>
    </div>
  );
}
