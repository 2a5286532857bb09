/**
 * The catalogues are complete and consistent: German and Arabic (each `<lang>.json` merged with
 * any `<lang>.*.json` beside it) have exactly English's ids, each translation uses the same
 * ICU arguments and tags as the English, and the compiled catalogues the app loads are those
 * of the sources (`npm run i18n:compile` was run).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { dir, merged, placeholders } from './catalogue-files.js';

const english = merged('en');
const translations = ['de', 'ar'];

describe('catalogues', () => {
  it('English is extracted and every message has a description', () => {
    expect(Object.keys(english).length).toBeGreaterThan(300);
    const undescribed = Object.entries(english).filter(([, m]) => !m.description?.trim());
    expect(undescribed.map(([id]) => id)).toEqual([]);
  });

  for (const lang of translations) {
    it(`${lang} has every id of English and no other`, () => {
      const ids = Object.keys(merged(lang));
      const missing = Object.keys(english).filter((id) => !ids.includes(id));
      const extra = ids.filter((id) => !(id in english));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it(`${lang} uses the same arguments and tags as English in each message`, () => {
      const cat = merged(lang);
      const differ = Object.keys(english)
        .filter((id) => id in cat)
        .map((id) => ({
          id,
          en: placeholders(english[id].defaultMessage),
          [lang]: placeholders(cat[id].defaultMessage),
        }))
        .filter((d) => JSON.stringify(d.en) !== JSON.stringify(d[lang]));
      expect(differ).toEqual([]);
    });
  }

  for (const lang of ['en', ...translations]) {
    it(`the compiled ${lang} catalogue is its sources' (npm run i18n:compile)`, () => {
      const compiled = JSON.parse(readFileSync(join(dir, 'compiled', `${lang}.json`), 'utf8')) as Record<
        string,
        unknown
      >;
      const cat = merged(lang);
      const expected = Object.fromEntries(Object.entries(cat).map(([id, m]) => [id, parse(m.defaultMessage)]));
      expect(compiled).toEqual(expected);
    });
  }

  it('the pseudo-locale has every English id, each message bracketed and accented, arguments kept', () => {
    const pseudo = JSON.parse(readFileSync(join(dir, 'compiled', 'en-XA.json'), 'utf8')) as Record<
      string,
      MessageFormatElement[]
    >;
    expect(Object.keys(pseudo).sort()).toEqual(Object.keys(english).sort());
    for (const [id, els] of Object.entries(pseudo)) {
      const first = els[0];
      const last = els[els.length - 1];
      expect(first.type === TYPE.literal && first.value.startsWith('['), id).toBe(true);
      expect(last.type === TYPE.literal && last.value.endsWith(']'), id).toBe(true);
    }
    expect(JSON.stringify(pseudo['settings.title'])).not.toContain('Settings');
    expect(JSON.stringify(pseudo['format.request.sent'])).toContain('"value":"name"');
  });
});
