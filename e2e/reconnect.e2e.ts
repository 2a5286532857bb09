/**
 * Coming back after the relay was away: the app tries again every few seconds while it is on
 * screen, at once on "Retry now", and says within seconds when the app's own server is gone.
 * Timeouts here are generous bounds for a poll, not measurements.
 */
import type { Page } from '@playwright/test';
import { createAccount, goTo } from './flows.js';
import { expect, test } from './fixtures.js';

function offlineBanner(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Offline' });
}

function connectionState(page: Page) {
  return page.getByRole('button', { name: /Your profile/ });
}

test('after the relay was away the app is back within seconds, and Retry now tries at once', async ({ relay, app }) => {
  const { page } = await app('rosa');
  await createAccount(page, { relayUrl: relay.url, handle: 'rosa' });
  await goTo(page, 'Chats');
  await expect(connectionState(page)).toContainText('Connected');

  // Away, then back: Retry now reconnects without waiting for the next attempt.
  await relay.stop();
  await expect(offlineBanner(page)).toBeVisible({ timeout: 30_000 });
  await relay.start();
  await offlineBanner(page).getByRole('button', { name: 'Retry now' }).click();
  await expect(offlineBanner(page)).toBeHidden({ timeout: 10_000 });
  await expect(connectionState(page)).toContainText('Connected');

  // Away long enough for several attempts to fail: the wait between them stays short while
  // the app is on screen, so it is back soon after the relay is.
  await relay.stop();
  await expect(offlineBanner(page)).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(25_000);
  await relay.start();
  await expect(offlineBanner(page)).toBeHidden({ timeout: 12_000 });
  await expect(connectionState(page)).toContainText('Connected');
});

test("when web mode's server stops, the open tab says it is disconnected", async ({ relay, app }) => {
  const a = await app('sol');
  await createAccount(a.page, { relayUrl: relay.url, handle: 'sol' });
  await expect(connectionState(a.page)).toContainText('Connected');
  await a.quit('SIGTERM');
  await expect(a.page.getByRole('alert').filter({ hasText: 'Lost the connection to the app' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(connectionState(a.page)).not.toContainText('Connected');
});
