// `npm run i18n:compile`: each language's catalogue — `<lang>.json` merged with any
// `<lang>.*.json` beside it (parts translated separately) — compiled to ASTs the app loads
// (src/renderer/i18n/compiled/), plus the pseudo-locale en-XA made from English. Compiling
// also checks every message is valid ICU. Run after `npm run i18n:extract` or a translation.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const locales = join(root, 'src/renderer/i18n/locales');
const out = join(root, 'src/renderer/i18n/compiled');
const tmp = join(root, '.tmp/i18n');
const cli = join(root, 'node_modules/.bin/formatjs');
mkdirSync(out, { recursive: true });
mkdirSync(tmp, { recursive: true });

export function mergedCatalogue(lang) {
  const parts = readdirSync(locales).filter(
    (f) => f === `${lang}.json` || (f.startsWith(`${lang}.`) && f.endsWith('.json')),
  );
  const merged = {};
  for (const f of parts.sort()) {
    for (const [id, m] of Object.entries(JSON.parse(readFileSync(join(locales, f), 'utf8')))) {
      if (id in merged) throw new Error(`${f}: ${id} is also in another ${lang} catalogue`);
      merged[id] = m;
    }
  }
  return merged;
}

const langs = [
  ...new Set(
    readdirSync(locales)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.split('.')[0]),
  ),
];
for (const lang of langs) {
  const file = join(tmp, `${lang}.json`);
  writeFileSync(file, JSON.stringify(mergedCatalogue(lang), null, 2));
  execFileSync(cli, ['compile', '--ast', '--out-file', join(out, `${lang}.json`), file], { stdio: 'inherit' });
  if (lang === 'en')
    execFileSync(cli, ['compile', '--ast', '--pseudo-locale', 'en-XA', '--out-file', join(out, 'en-XA.json'), file], {
      stdio: 'inherit',
    });
}
console.log(`compiled ${langs.join(', ')} and en-XA into ${out}`);
