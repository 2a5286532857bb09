/**
 * The UI section of `npm run bench`: web mode measured as a person meets it.
 * - ui_cold_start_ms: from spawning `npm run web` (a prepared profile) to an interactive inbox
 *   (the conversation list on screen and the composer-free shell responding);
 * - ui_open_10k_ms: from clicking a conversation of 10,000 messages to its newest message shown
 *   and the composer taking input (the renderer lists the newest page; older ones come on scrolling);
 *   ui_open_10k_in_page_ms the same inside the page, click event to the frame after the newest
 *   message entered the DOM (what Playwright's checks and polling add is left out);
 * - ui_heap_after_scroll_mb: the renderer's JS heap after scrolling that conversation end to end
 *   (up to its first message, every older page loaded on the way, and down again).
 * The profile is made through the same services the app uses, then 10,000 messages are written
 * into its local database the way a sync would commit them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect } from '@playwright/test';
import { build } from 'vite';
import { LocalStore } from '../../client/store/local-store.js';
import { effectivePassphrase } from '../../client/store/profile-passphrase.js';
import { VaultClient } from '../../vault/worker/vault-client.js';
import type { IncomingMessage } from '../../client/store/local-store.js';
import { AppServices } from '../../app-core/app-services.js';
import { sourceRelayLauncher } from '../../app-core/relay-launcher.js';
import { binPath } from '../../test-support/child-process.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const MESSAGES = 10_000;
const PEER = '0x' + 'b0b'.padEnd(40, '0');

export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** `node <args>`: `[tsx, 'src/….ts', …]` from source, `[binPath(…), …]` built. */
export function spawnUntil(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = out.match(ready);
      if (m) resolve({ child, match: m });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    child.once('exit', () => r());
    child.kill('SIGTERM');
  });
}

/** A profile with a wallet, a relay and one conversation of 10,000 messages. */
async function prepareProfile(dataDir: string, relayUrl: string): Promise<void> {
  const services = await AppServices.start({
    dataDir,
    shell: 'web',
    relayLauncher: sourceRelayLauncher(),
    openExternal: async () => undefined,
  });
  try {
    const h = services.handlers;
    await services.handlers['relay.setLocal']({ enabled: false });
    const { address } = await h['wallet.create']({ passphrase: '' });
    await h['relay.connect']({ mode: 'url', url: relayUrl });
    await h['profile.claimHandle']({ handle: `bench_${address.slice(2, 8)}` });
  } finally {
    await services.close();
  }
  // client.db is encrypted with a key the unlocked vault gives
  const vault = new VaultClient({ profileDir: join(dataDir, 'profile') });
  let key: Buffer;
  try {
    await vault.unlock({ passphrase: effectivePassphrase('') });
    key = Buffer.from((await vault.databaseKey()).key, 'hex');
  } finally {
    await vault.close();
  }
  const store = LocalStore.open(join(dataDir, 'profile/client.db'), { key });
  try {
    const start = Date.now() - MESSAGES * 60_000;
    const items: IncomingMessage[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const fromMe = i % 3 === 0;
      const at = new Date(start + i * 60_000).toISOString();
      items.push({
        id: crypto.randomUUID(),
        envelopeId: crypto.randomUUID(),
        conversationId: `direct:${PEER}`,
        conversationKind: 'direct',
        peer: PEER,
        author: fromMe ? '0x' + '1'.repeat(40) : PEER,
        fromMe,
        kind: 'text',
        text:
          i % 7 === 0
            ? `Message ${i}: a longer line that wraps, to give the list rows of different heights as a real chat has them. ${'lorem ipsum '.repeat(6)}`
            : `Message ${i}`,
        sentAt: at,
        receivedAt: at,
        routed: 'inbox',
        via: null,
        botName: null,
        isRequest: false,
      });
    }
    for (let i = 0; i < items.length; i += 500) store.applyIncoming(items.slice(i, i + 500), [], Date.now());
  } finally {
    store.close();
  }
}

export async function benchUi(): Promise<Record<string, number>> {
  // the renderer as the source is now (web mode builds it only when there is none)
  await build({ configFile: join(root, '.config/vite.web.config.ts'), logLevel: 'warn' });
  const work = mkdtempSync(join(tmpdir(), 'ui-bench-'));
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
      '--enable-precise-memory-info',
    ],
  });
  let app: ChildProcess | null = null;
  /**
   * From spawning the app to its conversation list on screen, in a tab the browser already has
   * open: Playwright's newPage() makes a whole new browser profile (a context), which takes
   * seconds and is no part of the app nor of what a browser does for a link.
   */
  const coldStartToInbox = async (args: string[]) => {
    const page = await browser.newPage({ viewport: { width: 1180, height: 780 } });
    const t0 = performance.now();
    const web = await spawnUntil(args, /^open (\S+)$/m);
    await page.goto(web.match[1]);
    const row = page.getByRole('list', { name: 'Conversation list' }).getByRole('button').first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    return { page, row, ms: performance.now() - t0, child: web.child };
  };
  try {
    const dataDir = join(work, 'app');
    await prepareProfile(dataDir, relay.match[1]);

    // `npm run web` as built (run.ts built it first); the baseline, from source under tsx, after the rest
    const {
      page,
      row,
      ms: coldStart,
      child,
    } = await coldStartToInbox([binPath('web'), '--port', '0', '--data', dataDir, '--no-open']);
    app = child;

    // In the page too: from the click event to the frame after the newest message entered the
    // DOM, without Playwright's own actionability checks and polling (tens of ms under load).
    await page.evaluate(`(() => {
      const t = (window.__open10k = {});
      document.addEventListener('click', () => { t.click ??= performance.now(); }, { capture: true, once: true });
      const seen = () => [...document.querySelectorAll('.msg-text')].some((e) => e.textContent === 'Message ${MESSAGES - 1}');
      const mo = new MutationObserver(() => { if (seen()) { mo.disconnect(); requestAnimationFrame(() => { t.shown = performance.now(); }); } });
      mo.observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    const t1 = performance.now();
    await row.click();
    await page
      .getByRole('log', { name: 'Messages' })
      .getByText(`Message ${MESSAGES - 1}`, { exact: true })
      .waitFor({ state: 'visible', timeout: 60_000 });
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeEditable({ timeout: 60_000 });
    const open10k = performance.now() - t1;
    const open10kInPage = Number(await page.evaluate('window.__open10k.shown - window.__open10k.click'));

    // End to end and back, in steps a wheel would take, so every row is laid out once.
    const log = page.getByRole('log', { name: 'Messages' });
    const tScroll = performance.now();
    await log.evaluate(async (el) => {
      const step = el.clientHeight * 2;
      // Up until the first message is on screen: older pages are prepended as the top comes near.
      // (no named helpers in here: the transpiler would wrap them in a __name the page does not have)
      let reached = false;
      for (let n = 0; n < 20_000 && !reached; n++) {
        el.scrollTop = Math.max(0, el.scrollTop - step);
        await new Promise((r) => setTimeout(r, 16));
        reached =
          el.scrollTop === 0 &&
          [...el.querySelectorAll('.msg-text')].some((t) => t.textContent?.startsWith('Message 0:'));
      }
      if (!reached) throw new Error('scrolling up never reached the first message');
      for (let y = 0; y < el.scrollHeight; y += step) {
        el.scrollTop = y;
        await new Promise((r) => setTimeout(r, 16));
      }
    });
    const scrollMs = performance.now() - tScroll;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const domNodes = await page.evaluate('document.getElementsByTagName("*").length');
    await page.close();
    await stop(app);
    const fromSource = await coldStartToInbox([
      tsx,
      'src/main/web/cli.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      '--no-open',
    ]);
    app = fromSource.child;
    return {
      ui_cold_start_ms: Math.round(coldStart),
      ui_cold_start_from_source_ms: Math.round(fromSource.ms),
      ui_open_10k_ms: Math.round(open10k),
      ui_open_10k_in_page_ms: Math.round(open10kInPage),
      ui_scroll_10k_end_to_end_ms: Math.round(scrollMs),
      ui_heap_after_scroll_mb: Math.round((heap / 1024 / 1024) * 10) / 10,
      ui_dom_nodes_after_scroll: Number(domNodes),
    };
  } finally {
    await browser.close();
    if (app) await stop(app);
    await stop(relay.child);
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchUi().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
