/**
 * The language stories' shared walk (pseudo-locale.e2e.ts, arabic.e2e.ts): every main screen
 * of a new account and a first conversation, checked in the project's locale. The actions are
 * the English flows (flows.ts select by English names), so the page switches to English for
 * each action and back to the system language (the project's `locale`) for each check,
 * through the app's test hook (src/renderer/i18n/locale-provider.tsx).
 */
import { expect, type Page } from '@playwright/test';
import type { AppInstance, TestRelay } from './harness.js';
import type { PageGlobals } from './page-globals.js';
import {
  acceptRequest,
  claimHandle,
  chooseRelay,
  confirmWords,
  createAccount,
  goTo,
  messageFromDirectory,
  messages,
  send,
} from './flows.js';

/** Switches the app's language in place: 'en', 'de', 'ar', 'en-XA', or 'system'. */
export async function setLocale(page: Page, choice: string, expectedLang: string): Promise<void> {
  await page.evaluate((c) => {
    const w = globalThis as unknown as PageGlobals;
    w.dispatchEvent(new w.CustomEvent('messenger-locale', { detail: c }));
  }, choice);
  await expect(page.locator('html')).toHaveAttribute('lang', expectedLang);
}

/**
 * Visible text the pseudo-locale did not mark: a text node with ASCII letters and none of the
 * pseudo-locale's accented letters, once data is taken out (handles, addresses, URLs, hex,
 * tickers, clock suffixes). Data elements are skipped: code, bdi and anything marked
 * left-to-right (addresses, keys), message text and request intros, avatars' initials, the recovery words, times
 * and text marked with a language of its own (a language's name in its language).
 */
export async function untranslatedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SKIP =
      'code, bdi, [dir="ltr"]:not(html), time, .msg-text, .intro, .avatar, .phrase-word, script, style, [lang]:not(html), option, textarea, input';
    const DATA = /@[A-Za-z0-9_]+|0x[0-9A-Fa-f…]+|https?:\/\/\S+|\b[0-9A-Fa-f:]{16,}\b|\b(?:ETH|CRO|AM|PM)\b/g;
    const PSEUDO = /[\u00C0-\u024F\u1E00-\u1EFF]/;
    const found = new Set<string>();
    const w = globalThis as unknown as PageGlobals;
    const walker = w.document.createTreeWalker(w.document.body, w.NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = (n.textContent ?? '').trim();
      if (!el || !text || el.closest(SKIP) || !el.checkVisibility({ visibilityProperty: true, opacityProperty: false }))
        continue;
      const words = text.replace(DATA, '');
      if (/[A-Za-z]/.test(words) && !PSEUDO.test(words)) found.add(text);
    }
    return [...found];
  });
}

export interface WalkOptions {
  /** the html lang the project's locale resolves to */
  lang: string;
  /** runs on each screen, named */
  check: (page: Page, screen: string) => Promise<void>;
}

/** Onboarding step by step, then a chat, requests, directory, groups, stakes and settings. */
export async function walkMainScreens(
  relay: TestRelay,
  app: (name: string) => Promise<AppInstance>,
  { lang, check }: WalkOptions,
): Promise<void> {
  const alice = await app('alice');
  const p = alice.page;
  const english = () => setLocale(p, 'en', 'en');
  const own = () => setLocale(p, 'system', lang);

  await expect(p.locator('html')).toHaveAttribute('lang', lang);
  await check(p, 'onboarding-welcome');
  await english();
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await own();
  await check(p, 'onboarding-import');
  await english();
  await p.getByRole('button', { name: 'Back' }).click();
  await p.getByRole('button', { name: 'Create a new wallet' }).click();
  const phrase = p.getByRole('list', { name: 'Recovery phrase' });
  await expect(phrase.getByRole('listitem')).toHaveCount(12);
  const words = (await phrase.locator('.phrase-word').allTextContents()).map((w) => w.trim());
  await own();
  await check(p, 'onboarding-phrase');
  await english();
  await p.getByLabel('I have written these words down somewhere safe').check();
  await p.getByRole('button', { name: 'Continue' }).click();
  await expect(p.getByRole('heading', { name: 'Confirm your recovery phrase' })).toBeVisible();
  await own();
  await check(p, 'onboarding-confirm');
  await english();
  await confirmWords(p, words);
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await own();
  await check(p, 'onboarding-relay');
  await english();
  await chooseRelay(p, relay.url);
  await expect(p.getByRole('heading', { name: 'Pick a handle' })).toBeVisible();
  await own();
  await check(p, 'onboarding-handle');
  await english();
  await claimHandle(p, 'alice');
  await own();
  await check(p, 'chats-empty');

  const bob = await app('bob');
  await setLocale(bob.page, 'en', 'en');
  await createAccount(bob.page, { relayUrl: relay.url, handle: 'bob' });
  await messageFromDirectory(bob.page, 'alice');
  await send(bob.page, 'Hey Alice! Bob here.');

  await english();
  await goTo(p, 'Requests');
  await expect(p.getByText('Hey Alice! Bob here.')).toBeVisible();
  await own();
  await check(p, 'requests');
  await english();
  await acceptRequest(p, 'bob');
  await send(p, 'Hi Bob!');
  await expect(messages(p).getByText('Hi Bob!')).toBeVisible();
  await own();
  await check(p, 'chat');
  for (const section of ['Directory', 'Groups', 'Stakes', 'Settings'] as const) {
    await english();
    await goTo(p, section);
    await own();
    await check(p, section.toLowerCase());
  }
}
