/**
 * The documentation bundle: everything the server answers from, written at build time by
 * `scripts/generate-data.ts` from the site build's Markdown copies of its pages and from the
 * packages' sources, so it matches the package's version and needs no network.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DocsServerError } from './errors.js';

/**
 * Bumped when the shape changes, so an old bundle is refused with a clear error.
 * @claim tsdoc-docs-bundle-format
 */
export const BUNDLE_FORMAT = 2;

/** One page of the site, guide or API reference, as Markdown. */
export interface DocsPage {
  /** The page's path on the site, such as `/docs/guides/production/`. */
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /**
   * The sidebar section, such as `Guides`, or `API reference: classes` for an API page.
   * @claim tsdoc-docs-bundle-section
   */
  readonly section: string;
  readonly kind: 'guide' | 'api';
  /**
   * The page in Markdown, samples included in full.
   * @claim tsdoc-docs-bundle-markdown
   */
  readonly markdown: string;
}

/** A member of a class or interface. */
export interface ApiMember {
  readonly name: string;
  readonly signature: string;
  readonly summary: string;
}

/** One export of a first-party package. */
export interface ApiSymbol {
  readonly name: string;
  /**
   * `class`, `interface`, `function`, `type alias` or `variable`.
   * @claim tsdoc-docs-bundle-kinds
   */
  readonly kind: string;
  readonly signature: string;
  /** The TSDoc summary and remarks, as Markdown. */
  readonly doc: string;
  readonly members: readonly ApiMember[];
  /**
   * The code of the first `@example`, if the symbol has one.
   * @claim tsdoc-docs-bundle-example
   */
  readonly example?: string;
  /** The package that exports it, such as `@weft/testing`. */
  readonly packageName: string;
  /**
   * Where the site documents it: its API page for an export of `@weft/core`, the package's guide
   * for any other package's.
   */
  readonly docsPath: string;
  /** The README of the package, for an export of a package other than the core. */
  readonly readme?: string;
}

/** One code of an error registry. */
export interface ErrorCodeDoc {
  readonly code: string;
  readonly packageName: string;
  readonly summary: string;
  readonly status?: number | readonly number[];
  readonly raisedBy: string;
  readonly cause: string;
  readonly fix: string;
  /**
   * The code's section of the errors reference, such as `/docs/reference/errors/#weft_queue_full`.
   * @claim tsdoc-docs-bundle-error-path
   */
  readonly docsPath: string;
}

/** One first-party package, as the plugins page lists it. */
export interface CataloguePackage {
  readonly name: string;
  readonly displayName: string;
  readonly kind: string;
  readonly version: string;
  readonly description: string;
  readonly keywords: readonly string[];
  /** What it provides, in the plugins page's words (`Memory provider (spaces)`). */
  readonly provides: readonly string[];
  /** What it requires, in the plugins page's words (`PostgreSQL server`, `Weft runtime`). */
  readonly requires: readonly string[];
  /**
   * The `@weft/core` versions it works with, as the plugins page says it (`@weft/core 0.1.0`);
   * empty for the core itself.
   */
  readonly worksWith: readonly string[];
  /** Where it runs, as the plugins page says it (`Node.js 20.19+, 22.12+, 24, 26`). */
  readonly runsOn: readonly string[];
  readonly install: string;
  /** Whether {@link CataloguePackage.install} works yet: false until the packages are on npm. */
  readonly onNpm: boolean;
  /** The docs page that says how to install the packages today, as a site path. */
  readonly installationPath: string;
  /** The docs page about the package, as a site path (`/docs/guides/testing/`). */
  readonly docsPath: string;
}

/** The whole bundle: what {@link loadDocsBundle} returns and `createDocsServer` answers from. */
export interface DocsBundle {
  readonly format: typeof BUNDLE_FORMAT;
  /**
   * The version of `@weft/mcp-docs` (and of the framework: the packages share one).
   * @claim tsdoc-docs-bundle-version
   */
  readonly version: string;
  /** The site the paths are relative to, such as `https://weft-ai.github.io`. */
  readonly siteUrl: string;
  readonly pages: readonly DocsPage[];
  readonly symbols: readonly ApiSymbol[];
  readonly errors: readonly ErrorCodeDoc[];
  readonly packages: readonly CataloguePackage[];
}

// Every field the server reads, checked when the bundle is loaded: a file with the right format
// number but entries of another shape would otherwise start the server and fail each request
// (over HTTP), or stop it with a message that does not name the file (over stdio).
const aString = z.string();
const strings = z.array(aString);
const BUNDLE_SCHEMA = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: aString,
  siteUrl: aString,
  pages: z.array(
    z.object({
      path: aString,
      title: aString,
      description: aString,
      section: aString,
      kind: z.enum(['guide', 'api']),
      markdown: aString,
    }),
  ),
  symbols: z.array(
    z.object({
      name: aString,
      kind: aString,
      signature: aString,
      doc: aString,
      members: z.array(z.object({ name: aString, signature: aString, summary: aString })),
      example: aString.optional(),
      packageName: aString,
      docsPath: aString,
      readme: aString.optional(),
    }),
  ),
  errors: z.array(
    z.object({
      code: aString,
      packageName: aString,
      summary: aString,
      status: z.union([z.number(), z.array(z.number())]).optional(),
      raisedBy: aString,
      cause: aString,
      fix: aString,
      docsPath: aString,
    }),
  ),
  packages: z.array(
    z.object({
      name: aString,
      displayName: aString,
      kind: aString,
      version: aString,
      description: aString,
      keywords: strings,
      provides: strings,
      requires: strings,
      worksWith: strings,
      runsOn: strings,
      install: aString,
      onNpm: z.boolean(),
      installationPath: aString,
      docsPath: aString,
    }),
  ),
});

/**
 * Where the build writes the bundle, beside `dist/` in the package.
 * @claim tsdoc-docs-bundle-default-file
 */
export const DEFAULT_BUNDLE_FILE = fileURLToPath(
  new URL('../data/docs-bundle.json', import.meta.url),
);

/**
 * Reads and checks a bundle file.
 *
 * @param file - The bundle's path; defaults to the one the package carries.
 * @returns The bundle.
 * @throws DocsServerError `WEFT_DOCS_NO_DATA` when the file is missing or not a bundle.
 * @claim tsdoc-docs-bundle-load-throws
 */
export async function loadDocsBundle(file: string = DEFAULT_BUNDLE_FILE): Promise<DocsBundle> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new DocsServerError(
      'WEFT_DOCS_NO_DATA',
      `weft-docs-mcp: cannot read the documentation bundle ${file} (${(error as Error).message}). ` +
        'Reinstall the package, or in a clone run `npm run build` at the root (the site build its pages come from), then `npm run build -w @weft/mcp-docs`.',
    );
  }
  let bundle: unknown;
  try {
    bundle = JSON.parse(text);
  } catch (error) {
    throw new DocsServerError(
      'WEFT_DOCS_NO_DATA',
      `weft-docs-mcp: the documentation bundle ${file} is not valid JSON (${(error as Error).message}).`,
    );
  }
  const checked = BUNDLE_SCHEMA.safeParse(bundle);
  if (!checked.success) {
    const [issue] = checked.error.issues;
    const where = issue === undefined || issue.path.length === 0 ? '' : issue.path.join('.');
    throw new DocsServerError(
      'WEFT_DOCS_NO_DATA',
      `weft-docs-mcp: ${file} is not a documentation bundle of format ${BUNDLE_FORMAT}` +
        `${where === '' ? '' : ` (${where}: ${issue?.message ?? 'invalid'})`}; rebuild the package.`,
    );
  }
  return bundle as DocsBundle;
}
