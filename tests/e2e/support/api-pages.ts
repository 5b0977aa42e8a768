/**
 * The exports of @weft/core that SITE-REQUIREMENTS.md lists under "API reference pages"
 * (12 classes, 2 functions, 22 interfaces, 8 type aliases, 4 variables), one entry per page.
 *
 * TypeDoc (typedoc-plugin-markdown with the Docusaurus theme) keeps each export's own casing in
 * the URL, so `defineCapability` is served at /api/functions/defineCapability/ and
 * `TEXT_GENERATION_CAPABILITY` at /api/variables/TEXT_GENERATION_CAPABILITY/. The page h1 is
 * "{Kind}: {name}" (pageTitleTemplates.member in libs/docs-model/typedoc.ts), followed by the type
 * parameters of a generic ("Interface: ModelCapability<K>") and "()" for anything callable.
 */
import { coreApiNames as namesByKind, type ApiKind } from '../../support/core-api';

export type { ApiKind };

export interface ApiPage {
  kind: ApiKind;
  name: string;
  /** Route with the trailing slash the site enforces. */
  path: string;
  /** "Class: Runtime", "Function: defineCapability" (without type parameters or "()"). */
  label: string;
  /** Matches the h1 TypeDoc writes, e.g. "Class: Runtime" or "Function: defineCapability()". */
  heading: RegExp;
}

const headingPrefix: Record<ApiKind, string> = {
  classes: 'Class',
  functions: 'Function',
  interfaces: 'Interface',
  'type-aliases': 'Type Alias',
  variables: 'Variable',
};

export const apiPages: readonly ApiPage[] = (Object.keys(namesByKind) as ApiKind[]).flatMap(
  (kind) =>
    namesByKind[kind].map((name) => ({
      kind,
      name,
      path: `/api/${kind}/${name}/`,
      label: `${headingPrefix[kind]}: ${name}`,
      heading: new RegExp(
        `^${headingPrefix[kind]}: ${name}(<[^>]+>)?${kind === 'functions' ? '\\(\\)' : '(\\(\\))?'}$`,
      ),
    })),
);

export function apiPagesOfKind(kind: ApiKind): readonly ApiPage[] {
  return apiPages.filter((page) => page.kind === kind);
}
