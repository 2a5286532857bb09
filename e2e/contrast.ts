/**
 * The contrast of a control's text against what it is drawn on, computed from its styles: its
 * colour over the nearest background that is not transparent, as WCAG defines the ratio. axe
 * leaves a case "to review" rather than failing it when the background is layered (a button on
 * a message bubble with a shadow), which is exactly where white text on a white button hid.
 */
import type { Locator } from '@playwright/test';
import type { PageElement, PageGlobals } from './page-globals.js';

export async function contrastRatio(locator: Locator): Promise<{ ratio: number; color: string; background: string }> {
  return locator.evaluate((el: PageElement) => {
    const w = globalThis as unknown as PageGlobals;
    const rgba = (s: string) => (s.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const c = [r, g, b].map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const color = w.getComputedStyle(el).color;
    let background = 'rgb(255, 255, 255)';
    for (let n: PageElement | null = el; n; n = n.parentElement) {
      const bg = w.getComputedStyle(n).backgroundColor;
      const [, , , a = 1] = rgba(bg);
      if (a > 0.5) {
        background = bg;
        break;
      }
    }
    const [l1, l2] = [luminance(rgba(color)), luminance(rgba(background))].sort((a, b) => b - a);
    return { ratio: (l1 + 0.05) / (l2 + 0.05), color, background };
  });
}
