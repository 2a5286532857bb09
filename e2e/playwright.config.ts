/**
 * End-to-end tests: real relays, real app processes (web mode), a real browser.
 * - "web": always; Chromium from $CHROMIUM_PATH, else `chromium` on PATH, else Playwright's own.
 * - "electron": the desktop shell through _electron.launch; skipped (with the reason) where
 *   no Electron binary is installed.
 * - "screenshots": `npm run screenshots` only; every screen, light and dark, into .tmp/screenshots
 *   (screenshots*.e2e.ts: screenshots-flows.e2e.ts holds the screens that take three people)
 *   (SCREENSHOT_LOCALES=de,ar adds each screen in those languages).
 * - "pseudo", "arabic": `npm run test:i18n`; the main screens in the pseudo-locale and in Arabic.
 * - "visual": a dozen screens, light and dark, against the pictures in e2e/visual-baselines/
 *   (`npm run test:visual:update` rewrites them), with axe's colour-contrast rule on each.
 */
import { defineConfig } from '@playwright/test';
import { chromiumExecutable, CHROMIUM_ARGS } from './browser.js';

const executablePath = chromiumExecutable();

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  globalSetup: './global-setup.ts',
  outputDir: '../.tmp/e2e-results',
  // Two stories at a time, test by test (each has its own relay, apps and ports): a story mostly
  // waits on its processes and the browser, so two share two cores well, and finish sooner than
  // one at a time (docs/benchmarks.md, the test suites and CI).
  workers: 2,
  fullyParallel: true,
  timeout: 150_000,
  expect: { timeout: 20_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../.tmp/e2e-report' }]] : 'list',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1180, height: 780 },
    launchOptions: { args: CHROMIUM_ARGS, ...(executablePath ? { executablePath } : {}) },
  },
  projects: [
    {
      name: 'web',
      testIgnore: ['electron.e2e.ts', 'screenshots*.e2e.ts', 'pseudo-locale.e2e.ts', 'arabic.e2e.ts', 'visual.e2e.ts'],
    },
    { name: 'electron', testMatch: 'electron.e2e.ts' },
    { name: 'screenshots', testMatch: 'screenshots*.e2e.ts', timeout: 300_000 },
    // The languages (`npm run test:i18n`): the main screens under the pseudo-locale, where text
    // outside the catalogue shows, and in Arabic, right to left, with axe in light and dark.
    { name: 'pseudo', testMatch: 'pseudo-locale.e2e.ts', use: { locale: 'en-XA' } },
    { name: 'arabic', testMatch: 'arabic.e2e.ts', use: { locale: 'ar' } },
    // One file per picture, named by the test's own name for it and nothing else: no platform
    // suffix, since CI runs on this same Debian Chromium. The tolerance takes anti-aliasing
    // noise, not a changed colour, a moved control or a cut word.
    {
      name: 'visual',
      testMatch: 'visual.e2e.ts',
      snapshotPathTemplate: '{testDir}/visual-baselines/{arg}{ext}',
      // a picture waits for two in a row to agree, which takes longer than 5 s on a busy machine
      expect: {
        toHaveScreenshot: { maxDiffPixelRatio: 0.015, animations: 'disabled', caret: 'hide', timeout: 30_000 },
      },
    },
  ],
});
