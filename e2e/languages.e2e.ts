/**
 * What the languages look like where a new user meets them: the chat list's previews in German
 * and Arabic (translated, and cut at the end their own direction has), placeholders that fit and
 * read in order, the language choice on the first screen, and Settings that stays where it was
 * when the language changes. Actions are the English flows; each check switches the language
 * in place (i18n-walk.ts's setLocale) and back.
 */
import type { Locator } from '@playwright/test';
import type { PageElement, PageGlobals } from './page-globals.js';
import { acceptRequest, createAccount, goTo, messageFromDirectory, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { setLocale } from './i18n-walk.js';

/** Whether an input's placeholder is drawn whole: its text's width against the box's inner width. */
function placeholderFits(input: Locator): Promise<{ text: number; room: number }> {
  return input.evaluate((el: PageElement) => {
    const w = globalThis as unknown as PageGlobals;
    const style = w.getComputedStyle(el);
    const ctx = w.document.createElement('canvas').getContext('2d');
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: Math.ceil(ctx.measureText(el.placeholder).width), room };
  });
}

test('previews and placeholders in German and Arabic: translated, whole, in reading order', async ({
  relay,
  app,
}, testInfo) => {
  // several apps on a shared machine
  test.slow();
  const alice = await app('alice');
  const bob = await app('bob');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hi Alice');
  await acceptRequest(alice.page, 'bob');
  const p = alice.page;
  await p.getByRole('combobox', { name: 'Disappearing messages' }).selectOption({ label: '1 hour' });
  // by its class: the list's own name changes with the language
  const preview = p.locator('.conv-list .conv-preview');

  await setLocale(p, 'de', 'de');
  await expect(preview).toHaveText('Verschwindende Nachrichten geändert');
  // the search box above the list says all of what it searches
  const search = p.locator('.pane-search input');
  const fit = await placeholderFits(search);
  expect(fit.text, `"${await search.getAttribute('placeholder')}" in ${fit.room}px`).toBeLessThanOrEqual(fit.room);
  await p.screenshot({ path: testInfo.outputPath('chats-de-light.png') });

  await setLocale(p, 'ar', 'ar');
  await expect(preview).toHaveText('تغيّر إعداد الرسائل المختفية');
  // an Arabic preview runs, and is cut short, right to left
  await expect(preview).toHaveCSS('direction', 'rtl');
  await p.emulateMedia({ colorScheme: 'dark' });
  await p.screenshot({ path: testInfo.outputPath('chats-ar-dark.png') });
  await p.emulateMedia({ colorScheme: 'light' });
  await setLocale(p, 'en', 'en');
  await expect(preview).toHaveText('Disappearing messages changed');

  // Add a member, in Arabic: the placeholder's Arabic reads right to left with "@" and "0x"
  // kept whole in their own direction (isolated), not mixed into one scrambled run.
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Book club');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Book club' })).toBeVisible();
  await setLocale(p, 'ar', 'ar');
  const member = p.getByRole('textbox', { name: 'إضافة عضو' });
  await expect(member).toHaveCSS('direction', 'rtl');
  const placeholder = (await member.getAttribute('placeholder')) ?? '';
  expect(placeholder).toMatch(/\u2068@[^\u2069]*\u2069/);
  expect(placeholder).toMatch(/\u20680x[^\u2069]*\u2069/);
  await p.screenshot({ path: testInfo.outputPath('group-add-member-ar-light.png') });
  await setLocale(p, 'en', 'en');
});

test('the first screen offers the language, and Settings keeps its place when it changes', async ({ relay, app }) => {
  const alice = await app('alice');
  const p = alice.page;
  const language = p.getByRole('combobox', { name: 'Language' });
  await expect(language).toBeVisible();
  await language.selectOption({ label: 'Deutsch' });
  await expect(p.locator('html')).toHaveAttribute('lang', 'de');
  await expect(p.getByRole('button', { name: 'Neue Wallet erstellen' })).toBeVisible();
  await p.getByRole('combobox', { name: 'Sprache' }).selectOption({ label: 'English' });
  await expect(p.locator('html')).toHaveAttribute('lang', 'en');

  await createAccount(p, { relayUrl: relay.url, handle: 'alice' });
  await goTo(p, 'Settings');
  await expect(p.getByRole('region', { name: 'Profile' })).toBeVisible();
  const page = p.locator('main .page');
  await page.evaluate((el) => el.scrollTo(0, 10_000));
  await language.scrollIntoViewIfNeeded();
  expect(await page.evaluate((el) => el.scrollTop), 'Settings is scrolled down to the language').toBeGreaterThan(100);
  // the picker stays where it was on screen, in a language whose words run longer and in one
  // whose run shorter (and the other way)
  const select = p.locator('main select').last();
  for (const [label, lang] of [
    ['Deutsch', 'de'],
    ['العربية', 'ar'],
    ['English', 'en'],
  ]) {
    const before = (await select.boundingBox())!.y;
    await select.selectOption({ label });
    await expect(p.locator('html')).toHaveAttribute('lang', lang);
    await expect(select).toBeInViewport();
    await expect
      .poll(async () => Math.abs((await select.boundingBox())!.y - before), `the picker moved, in ${lang}`)
      .toBeLessThan(8);
  }
});
