/**
 * Bidirectional isolation of names inside sentences, in a file of its own so that the sentence
 * helpers (format.ts) and the recipient problems (recipient-problems.ts, which error-messages.ts
 * words) can both use it without importing one another.
 */
import type { IntlShape } from 'react-intl';
import { isRtl } from './locales.js';

/**
 * A name, handle or address inside a sentence of a right-to-left language, isolated (FSI … PDI)
 * so an "@handle" or "0x…" keeps its own direction and does not reorder the words around it.
 * Left to right needs none, and the text stays as typed.
 */
export function isolate(text: string, intl: IntlShape): string {
  return isRtl(intl.locale) ? `\u2068${text}\u2069` : text;
}
