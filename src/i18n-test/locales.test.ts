import { describe, expect, it } from 'vitest';
import { isRtl, matchLocale, resolveLocale } from '../renderer/i18n/locales.js';

describe('locale detection', () => {
  it('takes the first preferred language the app has, by its primary subtag', () => {
    expect(matchLocale(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(matchLocale(['ar-EG'])).toBe('ar');
    expect(matchLocale(['en-GB', 'de'])).toBe('en');
  });
  it('falls back to English', () => {
    expect(matchLocale(['fr', 'ja'])).toBe('en');
    expect(matchLocale([])).toBe('en');
  });
  it('knows the pseudo-locale only by its exact tag', () => {
    expect(matchLocale(['en-XA'])).toBe('en-XA');
    expect(matchLocale(['en-US'])).toBe('en');
  });
  it('a choice in Settings wins over the system', () => {
    expect(resolveLocale('ar', ['de'])).toBe('ar');
    expect(resolveLocale('system', ['de'])).toBe('de');
  });
  it('Arabic is right to left', () => {
    expect(isRtl('ar')).toBe(true);
    expect(isRtl('de')).toBe(false);
    expect(isRtl('en-XA')).toBe(false);
  });
});
