/**
 * The compiled catalogues (`npm run i18n:compile` writes src/renderer/i18n/compiled/): English
 * is in the bundle, as it is also every message's fallback; the others load when chosen.
 */
import type { MessageFormatElement } from 'react-intl';
import en from './compiled/en.json';
import type { AppLocale } from './locales.js';

export type Messages = Record<string, MessageFormatElement[]>;

/**
 * A compiled catalogue as the app reads it. JSON's types say `type: number` where react-intl's
 * elements name their kinds, so the file is checked here as a map of message lists; the
 * elements inside are as the compiler wrote them.
 */
function catalogue(json: unknown): Messages {
  if (!isCatalogue(json)) throw new Error('a compiled catalogue is not a map of messages');
  return json;
}

function isCatalogue(json: unknown): json is Messages {
  return typeof json === 'object' && json !== null && Object.values(json).every((v) => Array.isArray(v));
}

export const english = catalogue(en);

export async function loadMessages(locale: AppLocale): Promise<Messages> {
  switch (locale) {
    case 'de':
      return catalogue((await import('./compiled/de.json')).default);
    case 'ar':
      return catalogue((await import('./compiled/ar.json')).default);
    case 'en-XA':
      return catalogue((await import('./compiled/en-XA.json')).default);
    default:
      return english;
  }
}
