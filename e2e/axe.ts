/** The accessibility check the stories run on a screen: axe, WCAG 2 A and AA, in light and dark. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
// Moderate and minor findings are advice (e.g. best-practice region rules); these two fail a story.
const FAILING = new Set(['serious', 'critical']);
// A colour scheme is CSS only: the DOM, and so every rule about names, roles and structure, is the
// same in both. Dark runs just the rules that read colours, which halves the time on each screen.
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Stops CSS transitions until the returned function is called, through the app's own reduced-motion
 * rule (the CSP forbids injected styles). Buttons fade their colours for 120 ms; measured mid-fade
 * on a busy machine, axe reports colours nobody sees.
 */
export async function freezeTransitions(page: Page): Promise<() => Promise<void>> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return () => page.emulateMedia({ reducedMotion: null });
}

/** One line per rule and one per offending element, so a failure says what to fix without opening the trace. */
export function describeViolations(violations: Result[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map(
        (n) => `    ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\s*\n\s*/g, ' ').slice(0, 300)}`,
      );
      return `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes.join('\n')}`;
    })
    .join('\n');
}

/** Serious and critical axe violations on the page as it is now, in the current colour scheme. */
export async function seriousViolations(page: Page, rules?: string[]): Promise<Result[]> {
  const builder = new AxeBuilder({ page });
  const results = await (rules ? builder.withRules(rules) : builder.withTags(TAGS)).analyze();
  return results.violations.filter((v) => FAILING.has(v.impact ?? ''));
}

/**
 * Checks the screen in light and then dark, switched as screenshots.e2e.ts switches them, and leaves it light.
 * Soft assertions: a walk through every screen reports every failing screen in one run.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const thaw = await freezeTransitions(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await seriousViolations(page, scheme === 'dark' ? COLOUR_RULES : undefined);
    expect.soft(violations.length, `axe on "${label}" (${scheme}):\n${describeViolations(violations)}`).toBe(0);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await thaw();
}
