/**
 * The docs server's own card: what the plugins page shows for @weft/mcp-docs and what
 * `list_plugins` answers for it, both read from the package's catalogue metadata.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import { packageRow } from '../scripts/package-rows.js';
import { formatPackage } from '../src/tools.js';

const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));

describe('the card of @weft/mcp-docs', () => {
  it('requires nothing, not a Weft runtime, on the plugins page and in list_plugins, as the server runs without one [claim:cg-catalogue-standalone]', async () => {
    const { entries } = await readCatalogue(PACKAGES_DIR);
    const entry = entries.find((candidate) => candidate.name === '@weft/mcp-docs')!;
    expect(entry.requires.services).not.toContain('runtime');
    const card = new Map(cardFacts(entry).map((fact) => [fact.term, fact.items]));
    // The plugins page's card.
    expect(card.get('Requires')).toEqual(['Nothing']);
    // It still loads @weft/core, and says which versions.
    expect(card.get('Works with')).toEqual([expect.stringMatching(/^@weft\/core /)]);
    // list_plugins, given the row the bundle's generator makes of the same facts.
    const text = formatPackage(packageRow(entry), 'https://docs.example');
    expect(text).toContain('\nRequires: Nothing\n');
    expect(text).not.toContain('Weft runtime');
  });
});
