/**
 * docs/glossary.md is the translators' one wording per concept: no German or Arabic message
 * uses a wording the glossary lists under *Not* for its language.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { merged } from './catalogue-files.js';

const glossary = readFileSync(fileURLToPath(new URL('../../docs/glossary.md', import.meta.url)), 'utf8');

/** The table's rows, each cell split on commas (Latin or Arabic). */
function rows(): { concept: string; avoid: Record<'de' | 'ar', string[]> }[] {
  const words = (cell: string) =>
    cell
      .split(/[,،]/)
      .map((w) => w.trim())
      .filter(Boolean);
  return glossary
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('| ---') && !l.startsWith('| Concept'))
    .map((l) => l.split('|').slice(1, -1))
    .map((cells) => ({ concept: cells[0].trim(), avoid: { de: words(cells[4]), ar: words(cells[5]) } }));
}

describe('glossary', () => {
  it('has a row for each concept translators meet on the first screens', () => {
    const concepts = rows().map((r) => r.concept.split(' (')[0]);
    for (const c of ['Stake', 'Contact request', 'Relay', 'Contact', 'Block', 'Group', 'Recovery phrase', 'Passphrase'])
      expect(concepts).toContain(c);
    for (const c of ['Device', 'Safety number', 'Handle']) expect(concepts).toContain(c);
  });

  for (const lang of ['de', 'ar'] as const) {
    it(`${lang}: no message uses a wording the glossary rules out`, () => {
      const catalogue = merged(lang);
      const found = rows().flatMap((r) =>
        r.avoid[lang].flatMap((word) =>
          Object.entries(catalogue)
            .filter(([, m]) => m.defaultMessage.toLowerCase().includes(word.toLowerCase()))
            .map(([id, m]) => `${r.concept}: ${id} uses “${word}”: ${m.defaultMessage}`),
        ),
      );
      expect(found).toEqual([]);
    });
  }
});
