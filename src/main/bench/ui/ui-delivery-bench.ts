/**
 * The `delivery` section of `npm run bench`: live delivery as two people see it in web mode.
 * - ui_delivery_p50_ms / p95: from the Send click in one app instance to the text on the
 *   other's screen (both conversations open, both on one relay, the relay's rate limit off);
 * - the baseline in the same run, ui_delivery_sent_tick_p50_ms / p95: from the same click to the
 *   sender's own "Sent" tick, the relay's answer to the send: delivery to another person's
 *   screen cannot beat the sender's round trip by much, since both follow the one commit.
 * Both ends are timed inside the pages (a MutationObserver stamps each arrival), so the bench
 * process's own round trips to the browser are not in the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { AppServices } from '../../app-core/app-services.js';
import { sourceRelayLauncher } from '../../app-core/relay-launcher.js';
import { binPath } from '../../test-support/child-process.js';
import { percentile } from '../report.js';
import { chromiumPath, spawnUntil, stop } from './ui-bench.js';

const MESSAGES = 50;
/** what the pages note (see openConversation): when each text arrived, and when its own tick said it was sent */
type Stamps = { arrived: Record<string, number>; ticked: Record<string, number> };
/**
 * A pause between sends, as between two messages a person writes; receipts of the last one go
 * back meanwhile. Each message costs the receiver's key about three requests (the woken pull's
 * ack, the next hold, a receipt), so a faster pace would run its 120 a minute out and measure
 * the client's pacing instead of delivery.
 */
const GAP_MS = 2000;

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`delivery bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Two profiles on the relay that have written to each other, so messages go to the inbox (not as requests). */
async function prepareProfiles(dirs: [string, string], relayUrl: string): Promise<[string, string]> {
  const [a, b] = await Promise.all(
    dirs.map((dataDir) =>
      AppServices.start({
        dataDir,
        shell: 'web',
        relayLauncher: sourceRelayLauncher(),
        openExternal: async () => undefined,
      }),
    ),
  );
  try {
    const setUp = async (s: AppServices, handle: string) => {
      await s.handlers['relay.setLocal']({ enabled: false });
      const { address } = await s.handlers['wallet.create']({ passphrase: '' });
      await s.handlers['relay.connect']({ mode: 'url', url: relayUrl });
      await s.handlers['profile.claimHandle']({ handle });
      return address.toLowerCase();
    };
    const suffix = Date.now().toString(36).slice(-5);
    const [aAddr, bAddr] = await Promise.all([setUp(a, `bench_a_${suffix}`), setUp(b, `bench_b_${suffix}`)]);
    const sent = async (s: AppServices, to: string, text: string, asRequest: boolean) => {
      const c = await s.handlers['conversations.open']({ to });
      const m = await s.handlers['messages.send']({ conversationId: c.id, text, asRequest });
      await until(`"${text}" sent`, async () =>
        (await s.handlers['messages.list']({ conversationId: c.id })).find((x) => x.id === m.id && x.state === 'sent'),
      );
    };
    await sent(a, bAddr, 'Hello from the bench', true);
    await until('the request', async () => {
      await b.handlers['sync.now']({});
      return (await b.handlers['requests.list']({})).some((r) => r.address.toLowerCase() === aAddr);
    });
    await b.handlers['requests.accept']({ address: aAddr });
    await sent(b, aAddr, 'Hello back', false);
    return [aAddr, bAddr];
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** Opens the app's link in its own context and the conversation with `peer`; stamps arrivals and ticks from then on. */
async function openConversation(browser: Browser, link: string, peer: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1180, height: 780 } });
  const page = await context.newPage();
  await page.goto(link);
  const list = page.getByRole('list', { name: 'Conversation list' }).getByRole('button').first();
  const unlock = page.getByRole('button', { name: 'Unlock' });
  await list.or(unlock).waitFor({ state: 'visible', timeout: 120_000 });
  // a profile made with an empty passphrase may still be asked to unlock (no ticket remembered yet)
  if (await unlock.isVisible()) await unlock.click();
  await list.waitFor({ state: 'visible', timeout: 60_000 });
  await page
    .getByRole('list', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(peer.replace(/^@/, '')) })
    .click();
  await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: 60_000 });
  // page-side code as text: this side's TypeScript has no DOM types
  await page.evaluate(`(() => {
    const arrived = {};
    const ticked = {};
    Object.assign(window, { arrived, ticked });
    new MutationObserver(() => {
      const t = performance.timeOrigin + performance.now();
      for (const msg of document.querySelectorAll('.msg')) {
        const text = msg.querySelector('.msg-text')?.textContent ?? '';
        if (!text.startsWith('ping-')) continue;
        if (msg.classList.contains('theirs')) arrived[text] ??= t;
        else if (msg.querySelector('[aria-label="Sent"], [aria-label="Delivered"], [aria-label="Read"]')) ticked[text] ??= t;
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-label'] });
  })()`);
  return page;
}

export async function benchUiDelivery(
  opts: { quick?: boolean; log?: (l: string) => void } = {},
): Promise<Record<string, number>> {
  const count = opts.quick ? 5 : MESSAGES;
  const work = mkdtempSync(join(tmpdir(), 'ui-delivery-bench-'));
  const relay = await spawnUntil(
    [binPath('relay'), '--host', '127.0.0.1', '--port', '0', '--data', join(work, 'relay'), '--rate-limit', '0'],
    /relay listening on (\S+)/,
  );
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const apps: Awaited<ReturnType<typeof spawnUntil>>['child'][] = [];
  try {
    const dirs: [string, string] = [join(work, 'a'), join(work, 'b')];
    const [aAddr, bAddr] = await prepareProfiles(dirs, relay.match[1]);
    opts.log?.('delivery: profiles ready');
    const links = await Promise.all(
      dirs.map(async (dataDir) => {
        const web = await spawnUntil([binPath('web'), '--port', '0', '--data', dataDir, '--no-open'], /^open (\S+)$/m);
        apps.push(web.child);
        return web.match[1];
      }),
    );
    // each lists the other by handle once the directory answers, by address until then: match on either
    const sender = await openConversation(browser, links[0], `${bAddr.slice(0, 6)}|bench_b`);
    const receiver = await openConversation(browser, links[1], `${aAddr.slice(0, 6)}|bench_a`);
    const box = sender.getByRole('textbox', { name: 'Message' });
    const toScreen: number[] = [];
    const toTick: number[] = [];
    for (let i = 0; i < count; i++) {
      const text = `ping-${i}`;
      await box.fill(text);
      const t0 = (await sender.evaluate(`(() => {
        const t = performance.timeOrigin + performance.now();
        document.querySelector('button.send-btn').click();
        return t;
      })()`)) as number;
      // a function, not text: the page's CSP refuses eval, which a text predicate needs; the
      // stamps are the page's own globals, which Node's globalThis type does not declare
      const shown = await (
        await receiver.waitForFunction((k) => (Reflect.get(globalThis, 'arrived') as Stamps['arrived'])[k], text, {
          timeout: 30_000,
        })
      ).jsonValue();
      const ticked = await (
        await sender.waitForFunction((k) => (Reflect.get(globalThis, 'ticked') as Stamps['ticked'])[k], text, {
          timeout: 30_000,
        })
      ).jsonValue();
      toScreen.push(shown - t0);
      toTick.push(ticked - t0);
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    const s = [...toScreen].sort((x, y) => x - y);
    const b = [...toTick].sort((x, y) => x - y);
    const round = (v: number) => Math.round(v * 10) / 10;
    return {
      ui_delivery_p50_ms: round(percentile(s, 0.5)),
      ui_delivery_p95_ms: round(percentile(s, 0.95)),
      ui_delivery_sent_tick_p50_ms: round(percentile(b, 0.5)),
      ui_delivery_sent_tick_p95_ms: round(percentile(b, 0.95)),
      ui_delivery_messages: count,
    };
  } finally {
    await browser.close();
    for (const a of apps) await stop(a);
    await stop(relay.child);
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchUiDelivery({ quick: process.argv.includes('--quick'), log: (l) => console.error(l) }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
