/** format.ts in the active language: Intl's digits and separators, the catalogue's words. */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationSummary } from '../shared/domain.js';
import { amountText, dayLabel, deliveryNote, fileSize, lastMessagePreview, listTime } from '../renderer/i18n/format.js';
import { merged } from './catalogue-files.js';

function intlFor(locale: string) {
  const messages = Object.fromEntries(Object.entries(merged(locale)).map(([id, m]) => [id, m.defaultMessage]));
  return createIntl({ locale, defaultLocale: 'en', messages });
}
const en = intlFor('en');
const de = intlFor('de');
const ar = intlFor('ar');

describe('format.ts', () => {
  it('file sizes in the language’s numbers and words', () => {
    expect(fileSize(1, en)).toBe('1 byte');
    expect(fileSize(820, de)).toBe('820 Bytes');
    expect(fileSize(14.25 * 1024, en)).toBe('14.3 KB');
    expect(fileSize(14.25 * 1024, de)).toBe('14,3 KB');
  });

  it('amounts keep their exact decimals with the language’s separators', () => {
    expect(amountText('1234500000000000000000', 'ETH', en)).toBe('1,234.5 ETH');
    expect(amountText('1234500000000000000000', 'ETH', de)).toBe('1.234,5 ETH');
    expect(amountText('50000000000000000', 'ETH', de)).toBe('0,05 ETH');
  });

  it('yesterday and today from the catalogue', () => {
    const now = new Date(2026, 10, 27, 12);
    const yesterday = new Date(2026, 10, 26, 9).toISOString();
    expect(listTime(yesterday, de, now)).toBe('Gestern');
    expect(dayLabel(now.toISOString(), ar, now)).toBe('اليوم');
  });

  it('a delivery note names the person, isolated in right-to-left text only', () => {
    const m = { fromMe: true, state: 'sent', routed: 'blocked', conversationId: 'x' } as unknown as ChatMessage;
    expect(deliveryNote(m, '@bob', en)?.text).toBe('Not delivered: @bob is not accepting messages from you.');
    expect(deliveryNote(m, '@bob', ar)?.text).toContain('\u2068@bob\u2069');
  });

  it('a chat-list preview of a timer change or a deleted message is in the language', () => {
    const at = '2026-11-27T12:00:00.000Z';
    const preview = (text: string, kind: 'timer' | 'deleted', intl: typeof en) =>
      lastMessagePreview(
        { kind: 'direct', lastMessage: { text, at, fromMe: false, kind } } as unknown as ConversationSummary,
        intl,
      );
    expect(preview('Disappearing messages changed', 'timer', en)).toBe('Disappearing messages changed');
    expect(preview('Disappearing messages changed', 'timer', de)).toBe('Verschwindende Nachrichten geändert');
    expect(preview('Disappearing messages changed', 'timer', ar)).toBe('تغيّر إعداد الرسائل المختفية');
    expect(preview('Message deleted', 'deleted', de)).toBe('Nachricht gelöscht');
    expect(preview('Message deleted', 'deleted', ar)).toBe('حُذفت الرسالة');
  });

  it('a first message sent as a request loses its note once delivered, read or answered', () => {
    const m = { fromMe: true, state: 'sent', routed: 'request', delivery: 'sent' } as unknown as ChatMessage;
    expect(deliveryNote(m, '@alice', en)?.text).toMatch(/^Sent as a contact request/);
    expect(deliveryNote({ ...m, delivery: 'delivered' }, '@alice', en)).toBeNull();
    expect(deliveryNote({ ...m, delivery: 'read' }, '@alice', en)).toBeNull();
    expect(deliveryNote(m, '@alice', en, true)).toBeNull();
  });
});
