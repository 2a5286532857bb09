/** Per-test fixtures: a fresh relay and an app factory; everything is torn down after the test. */
import { test as base } from '@playwright/test';
import { ANVIL_MISSING } from '../src/main/devchain/anvil.js';
import { startLocalChain, type LocalChain } from '../src/main/devchain/local-chain.js';
import { AppInstance, TestRelay } from './harness.js';

export const test = base.extend<{
  relay: TestRelay;
  /** a relay without a rate limit: a long history sent in a row is far over 120 requests a minute */
  unlimitedRelay: TestRelay;
  /** anvil with the escrow deployed (the test is skipped where there is no anvil binary) */
  chain: LocalChain;
  /** a relay that takes stakes on `chain` */
  stakeRelay: TestRelay;
  app: (name: string, opts?: { colorScheme?: 'light' | 'dark'; dataDir?: string }) => Promise<AppInstance>;
}>({
  chain: async ({}, use, testInfo) => {
    testInfo.skip(ANVIL_MISSING !== null, ANVIL_MISSING ?? '');
    const chain = await startLocalChain();
    await use(chain);
    await chain.stop();
  },
  stakeRelay: async ({ chain }, use) => {
    const { rpcUrl, chainId } = chain.anvil;
    const relay = new TestRelay([
      '--stake-rpc',
      rpcUrl,
      '--stake-chain-id',
      String(chainId),
      '--stake-escrow',
      chain.escrow,
      '--stake-confirmations',
      '1',
    ]);
    await relay.start();
    await use(relay);
    await relay.dispose();
  },
  relay: async ({}, use) => {
    const relay = new TestRelay();
    await relay.start();
    await use(relay);
    await relay.dispose();
  },
  unlimitedRelay: async ({}, use) => {
    const relay = new TestRelay(['--rate-limit', '0']);
    await relay.start();
    await use(relay);
    await relay.dispose();
  },
  app: async ({ browser, locale }, use) => {
    const apps: AppInstance[] = [];
    await use(async (name, opts) => {
      const a = new AppInstance(name, browser, opts?.dataDir);
      apps.push(a);
      await a.launch(opts?.colorScheme, locale);
      return a;
    });
    for (const a of apps.reverse()) await a.dispose();
  },
});

export { expect } from '@playwright/test';
