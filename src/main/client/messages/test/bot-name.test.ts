/** The relay's botName is unsigned text: the client cleans and caps it before anything shows it. */
import { describe, expect, it } from 'vitest';
import { MAX_BOT_NAME, readBotName } from '../message-body.js';

describe('readBotName', () => {
  it('trims, drops control and format characters, and caps at 64 characters', () => {
    expect(readBotName('  deploy-notifier ')).toBe('deploy-notifier');
    expect(readBotName('dep\u202Eloy\u0007\n')).toBe('deploy');
    expect(readBotName('é'.repeat(100))).toBe('é'.repeat(MAX_BOT_NAME));
    expect([...readBotName('😀'.repeat(70))!]).toHaveLength(MAX_BOT_NAME);
  });

  it('is null when absent, not text, or empty once cleaned', () => {
    for (const v of [undefined, null, 42, {}, '', '   ', '\u200B\u0000']) expect(readBotName(v)).toBeNull();
  });
});
