/**
 * Removes the docs' claim ids (`@claim <id>` lines, see the contributing guide) from the type
 * declarations a package build wrote to `dist/`. They tie a TSDoc sentence to the test that
 * checks it inside this repository; in a user's editor they would be noise. Run from a package's
 * folder after `tsup`, which builds declarations in a worker its `onSuccess` hook does not wait for.
 */
import { realpathSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DECLARATION = /\.d\.[cm]?ts$/;

/** The declaration text without claim tags, and without doc comments that held nothing else. */
export function stripClaimTags(text) {
  return text
    .replace(/^[ \t]*\/\*\*[ \t]*@claim[ \t]+[^\n]*?\*\/[ \t]*\n/gm, '')
    .replace(/[ \t]*\/\*\*[ \t]*@claim[ \t]+[^\n]*?\*\//g, '')
    .replace(/^[ \t]*\*[ \t]*@claim\b[^\n]*\n/gm, '')
    .replace(/^[ \t]*\/\*\*[ \t]*\n[ \t]*\*\/[ \t]*\n/gm, '');
}

async function* declarations(folder) {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* declarations(file);
    else if (DECLARATION.test(entry.name)) yield file;
  }
}

// Compared as real paths: a `file://` string of argv[1] differs from the module's URL wherever the
// folder's path has a character a URL escapes (a space, `#`, `%`), and the build then shipped the
// tags without a word.
const entry = process.argv[1];
if (entry !== undefined && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))) {
  for await (const file of declarations(path.resolve('dist'))) {
    const text = await readFile(file, 'utf8');
    const stripped = stripClaimTags(text);
    if (stripped !== text) await writeFile(file, stripped);
  }
}
