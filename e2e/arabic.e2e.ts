/**
 * The `arabic` project (locale ar): every main screen in Arabic, right to left, with axe in
 * light and dark (expectAccessible), reported screen by screen.
 */
import { expectAccessible } from './axe.js';
import { expect, test } from './fixtures.js';
import { walkMainScreens } from './i18n-walk.js';

test('every main screen in Arabic, right to left, passes axe in light and dark', async ({ relay, app }) => {
  await walkMainScreens(relay, app, {
    lang: 'ar',
    check: async (page, screen) => {
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expectAccessible(page, screen);
    },
  });
});
