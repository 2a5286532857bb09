/** Per-test fixtures: a fresh relay and an app factory; everything is torn down after the test. */
import { test as base } from '@playwright/test';
import { AppInstance, TestRelay } from './harness.js';

export const test = base.extend<{ relay: TestRelay; app: (name: string, opts?: { colorScheme?: 'light' | 'dark'; dataDir?: string }) => Promise<AppInstance> }>({
  relay: async ({}, use) => {
    const relay = new TestRelay();
    await relay.start();
    await use(relay);
    await relay.dispose();
  },
  app: async ({ browser }, use) => {
    const apps: AppInstance[] = [];
    await use(async (name, opts) => {
      const a = new AppInstance(name, browser, opts?.dataDir);
      apps.push(a);
      await a.launch(opts?.colorScheme);
      return a;
    });
    for (const a of apps.reverse()) await a.dispose();
  },
});

export { expect } from '@playwright/test';
