/**
 * The `pseudo` project (locale en-XA): every main screen in the pseudo-locale, where each
 * catalogue message is accented and bracketed, so any visible text that is not is text that
 * does not come from the catalogue. The failure lists it, screen by screen.
 */
import { expect, test } from './fixtures.js';
import { untranslatedText, walkMainScreens } from './i18n-walk.js';

test('every main screen speaks the pseudo-locale: no text outside the catalogue', async ({ relay, app }) => {
  await walkMainScreens(relay, app, {
    lang: 'en-XA',
    check: async (page, screen) => {
      await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
      const text = await untranslatedText(page);
      expect.soft(text, `text not from the catalogue on "${screen}":\n  ${text.join('\n  ')}`).toEqual([]);
    },
  });
});
