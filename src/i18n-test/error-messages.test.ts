/**
 * Each of main's fixed error sentences has its catalogue message with the same English, so the
 * renderer can show it in the person's language; and one it does not know stays as it came.
 */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { plainErrorSentences, toIpcError } from '../shared/plain-errors.js';
import { errorMessages, errorText, translateError } from '../renderer/i18n/error-messages.js';
import { DescribedError } from '../renderer/i18n/described-error.js';
import { parseRecipient } from '../shared/recipient.js';
import { merged } from './catalogue-files.js';

describe('error sentences', () => {
  const ours = new Map(Object.values(errorMessages).map((m) => [m.id, m.defaultMessage]));

  it('every sentence of plain-errors.ts is in the catalogue under its id, with the same English', () => {
    const wrong = plainErrorSentences().filter((e) => ours.get(e.id) !== e.message);
    expect(wrong).toEqual([]);
  });

  it('a known sentence is shown in German, an unknown one as it came', () => {
    const de = merged('de');
    const messages = Object.fromEntries(Object.entries(de).map(([id, m]) => [id, m.defaultMessage]));
    const intl = createIntl({ locale: 'de', messages });
    const { message } = toIpcError({ name: 'VaultError', code: 'bad-passphrase', message: 'x' });
    expect(translateError(intl, message)).toBe(de['error.badPassphrase'].defaultMessage);
    expect(translateError(intl, message)).not.toBe(message);
    expect(translateError(intl, 'The relay says no.')).toBe('The relay says no.');
  });

  it('the page’s own DescribedError is shown from the catalogue, not as its English', () => {
    const de = merged('de');
    const intl = createIntl({
      locale: 'de',
      messages: Object.fromEntries(Object.entries(de).map(([id, m]) => [id, m.defaultMessage])),
    });
    const e = new DescribedError({ id: 'backup.restore.fileEmpty', defaultMessage: 'That file is empty.' });
    expect(errorText(intl, e)).toBe(de['backup.restore.fileEmpty'].defaultMessage);
    expect(errorText(intl, e)).not.toBe(e.message);
    expect(errorText(intl, new Error('The relay says no.'))).toBe('The relay says no.');
  });

  it('a recipient problem is worded when shown, in the language of that moment', () => {
    const de = merged('de');
    const intl = createIntl({
      locale: 'de',
      messages: Object.fromEntries(Object.entries(de).map(([id, m]) => [id, m.defaultMessage])),
    });
    const r = parseRecipient('0x123');
    if (!('problem' in r)) throw new Error('0x123 parsed as a recipient');
    expect(errorText(intl, r)).toContain('3 Hex-Ziffern');
    expect(errorText(intl, r)).not.toBe(r.problem);
  });
});
