/**
 * The compiled catalogues (`npm run i18n:compile` writes src/renderer/i18n/compiled/): English
 * is in the bundle, as it is also every message's fallback; the others load when chosen.
 */
import type { MessageFormatElement } from 'react-intl';
import en from './compiled/en.json';
import type { AppLocale } from './locales.js';

export type Messages = Record<string, MessageFormatElement[]>;

export const english = en as unknown as Messages;

export async function loadMessages(locale: AppLocale): Promise<Messages> {
  switch (locale) {
    case 'de':
      return (await import('./compiled/de.json')).default as unknown as Messages;
    case 'ar':
      return (await import('./compiled/ar.json')).default as unknown as Messages;
    case 'en-XA':
      return (await import('./compiled/en-XA.json')).default as unknown as Messages;
    default:
      return english;
  }
}
