/** Keyboard checks the accessibility story runs: every control reached by Tab with a visible ring, dialogs that keep focus. */
import { expect, type Locator, type Page } from '@playwright/test';
import { freezeTransitions } from './axe.js';

// The e2e tsconfig has no DOM lib (adding it would let main's code use browser globals unnoticed),
// so the little of the DOM these page functions touch is declared here, for this module only.
interface El {
  tagName: string;
  className: string;
  textContent: string | null;
  dataset: Record<string, string | undefined>;
  disabled?: boolean;
  type?: string;
  name?: string;
  getAttribute(name: string): string | null;
  parentElement: El | null;
  matches(selector: string): boolean;
  closest(selector: string): El | null;
  checkVisibility(opts: { visibilityProperty: boolean }): boolean;
  getBoundingClientRect(): { width: number };
  blur(): void;
}
declare const document: {
  activeElement: El | null;
  body: El;
  querySelectorAll(selector: string): El[] & { forEach(f: (el: El, i: number) => void): void };
};
declare function getComputedStyle(el: El): { outlineStyle: string; outlineWidth: string; boxShadow: string };

const CONTROLS = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

interface Focused {
  id: string | null;
  description: string;
  ring: boolean;
  inDialog: boolean;
}

/**
 * What has focus now, and whether it shows a ring: an outline or box-shadow on the element under
 * :focus-visible, or on the box around it under :focus-within (search fields and prefixed inputs
 * ring their frame, not the bare input inside).
 */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { id: null, description: 'body', ring: false, inDialog: false };
    const ringed = (e: El) => {
      const style = getComputedStyle(e);
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    };
    let ring = el.matches(':focus-visible') && ringed(el);
    for (let box = el.parentElement, up = 0; !ring && box && up < 3; box = box.parentElement, up++)
      ring = box.matches(':focus-within') && ringed(box);
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return {
      id: el.dataset.kbId ?? null,
      description: `<${el.tagName.toLowerCase()}${el.className ? ` class="${el.className}"` : ''}> ${name}`,
      ring,
      inDialog: !!el.closest('dialog[open]'),
    };
  });
}

/**
 * Tabs through the whole screen once and expects every visible, enabled control to be reached,
 * each showing a focus ring when it is.
 */
export async function expectEveryControlReachable(page: Page, label: string): Promise<void> {
  const expected = await page.evaluate((selector) => {
    const ids: Record<string, string> = {};
    document.querySelectorAll('[data-kb-id]').forEach((el) => delete el.dataset.kbId);
    document.querySelectorAll(selector).forEach((el, i) => {
      const visible = el.checkVisibility({ visibilityProperty: true }) && el.getBoundingClientRect().width > 0;
      if (!visible || el.disabled || el.closest('[inert]')) return;
      // A radio group is one Tab stop; arrows move within it.
      const id = el.tagName === 'INPUT' && el.type === 'radio' ? `radio:${el.name}` : String(i);
      el.dataset.kbId = id;
      ids[id] =
        `<${el.tagName.toLowerCase()}> ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`;
    });
    return ids;
  }, CONTROLS);
  expect(Object.keys(expected).length, `${label}: controls on screen`).toBeGreaterThan(0);

  const thaw = await freezeTransitions(page);
  await page.evaluate(() => document.activeElement?.blur());
  const reached = new Set<string>();
  const ringless: string[] = [];
  let first: string | null = null;
  // One lap: stop when focus comes back round to where it started.
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.id !== null && f.id === first) break;
    first ??= f.id;
    if (f.id !== null) reached.add(f.id);
    if (f.description !== 'body' && !f.ring) ringless.push(f.description);
  }
  await thaw();
  const missed = Object.entries(expected)
    .filter(([id]) => !reached.has(id))
    .map(([, d]) => d);
  expect.soft(missed, `${label}: controls Tab never reached`).toEqual([]);
  expect.soft(ringless, `${label}: controls focused without a visible focus ring`).toEqual([]);
}

/** Tab and Shift+Tab past either end stay inside the open dialog; Escape closes it. */
export async function expectDialogTrapsFocus(page: Page, dialog: Locator, label: string): Promise<void> {
  await expect(dialog).toBeVisible();
  const count = await dialog.locator(CONTROLS).count();
  expect(count, `${label}: controls in the dialog`).toBeGreaterThan(1);
  const thaw = await freezeTransitions(page);
  for (const key of ['Tab', 'Shift+Tab']) {
    const escaped: string[] = [];
    const ringless: string[] = [];
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press(key);
      const f = await focused(page);
      if (!f.inDialog) escaped.push(f.description);
      else if (!f.ring) ringless.push(f.description);
    }
    expect.soft(escaped, `${label}: ${key} moved focus out of the dialog`).toEqual([]);
    expect.soft(ringless, `${label}: focused by ${key} without a visible focus ring`).toEqual([]);
  }
  await thaw();
  await page.keyboard.press('Escape');
  await expect(dialog, `${label}: Escape closes the dialog`).toBeHidden();
}
