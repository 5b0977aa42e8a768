/**
 * The announcement bar's state in localStorage, settled by a head script before React starts.
 *
 * Docusaurus keeps two keys (its theme-common announcementBar context, whose names this module
 * repeats; tests/unit/announcement-storage.test.ts fails if they change):
 * - Docusaurus hides a dismissed bar with an inline script that reads only the dismissal flag,
 *   and React cannot undo that CSS later. A dismissal made for another id is reset here first,
 *   or a reader who closed an older announcement would not see the new one.
 * - The id is stored here too. React checks it in an effect, which runs a moment after the page
 *   is interactive; finding a new id there, it reset the dismissal and reopened a bar the reader
 *   had closed in that moment (a first tap lost, 1 visit in 20 in CI).
 */
export const ANNOUNCEMENT_STORAGE_KEYS = {
  id: 'docusaurus.announcement.id',
  dismissed: 'docusaurus.announcement.dismiss',
} as const;

/**
 * The head script for announcement `id`: when the stored id differs, it resets the dismissal as
 * Docusaurus would (`"false"`) and stores `id`. Storage that throws (disabled, full) is left
 * alone; Docusaurus's own reads of it fail quietly too.
 */
export function announcementHeadScript(id: string): string {
  const { id: idKey, dismissed } = ANNOUNCEMENT_STORAGE_KEYS;
  // As JavaScript string literals; `<` escaped so an id can never close the <script> element.
  const [key, current, dismissedKey] = [idKey, id, dismissed].map((value) =>
    JSON.stringify(value).replace(/</g, '\\u003c'),
  );
  return `try{var s=localStorage;if(s.getItem(${key})!==${current}){s.setItem(${dismissedKey},'false');s.setItem(${key},${current})}}catch(e){}`;
}
