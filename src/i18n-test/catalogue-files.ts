/** Reading the catalogue sources as the compile step does, for the i18n tests. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export const dir = fileURLToPath(new URL('../renderer/i18n/', import.meta.url));
const locales = join(dir, 'locales');
type Catalogue = Record<string, { defaultMessage: string; description?: string }>;

export function merged(lang: string): Catalogue {
  const out: Catalogue = {};
  for (const f of readdirSync(locales).filter(
    (n) => n === `${lang}.json` || (n.startsWith(`${lang}.`) && n.endsWith('.json')),
  ))
    Object.assign(out, JSON.parse(readFileSync(join(locales, f), 'utf8')));
  return out;
}

/** Argument names (with their kind) and tag names a message uses, wherever they are nested. */
export function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.argument) found.add(`{${el.value}}`);
      if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time)
        found.add(`{${el.value}, ${TYPE[el.type]}}`);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        found.add(`{${el.value}, ${el.type === TYPE.plural ? 'plural' : 'select'}}`);
        for (const o of Object.values(el.options)) walk(o.value);
      }
      if (el.type === TYPE.tag) {
        found.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}
