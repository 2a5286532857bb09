/**
 * A long conversation opens at its newest page and brings older pages in as the reader scrolls
 * up: what the reader looks at stays put, and every message shows exactly once.
 */
import type { Locator, Page } from '@playwright/test';
import { createAccount, goTo, messageFromDirectory, messages, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { clientCli, sendHistory, tempDir } from './harness.js';

const SENT = 250;

type ListCall = { before?: string; listed?: number };

/**
 * Web mode's socket, passed through: every `messages.list` the page asks main for is noted with
 * how many messages came back, and while `hold` is set, a call for an older page waits until
 * `release()` (so the screen can be looked at just before the page lands).
 */
async function watchListCalls(page: Page) {
  const calls: ListCall[] = [];
  const byId = new Map<number, ListCall>();
  const held: Array<() => void> = [];
  const watch = { calls, hold: false, held, release: () => held.splice(0).forEach((send) => send()) };
  await page.routeWebSocket(/\/ipc$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message)) as {
        type: string;
        id: number;
        name: string;
        args: { before?: string };
      };
      if (frame.type === 'call' && frame.name === 'messages.list') {
        const call: ListCall = { before: frame.args.before };
        calls.push(call);
        byId.set(frame.id, call);
        if (watch.hold && call.before) return void held.push(() => server.send(message));
      }
      server.send(message);
    });
    server.onMessage((message) => {
      const frame = JSON.parse(String(message)) as {
        type: string;
        id: number;
        result?: { ok: boolean; value?: unknown[] };
      };
      const call = frame.type === 'result' ? byId.get(frame.id) : undefined;
      if (call && frame.result?.ok) call.listed = frame.result.value?.length;
      ws.send(message);
    });
  });
  return watch;
}

/** The texts of the message rows rendered now, by their row index in the list. */
function renderedRows(log: Locator): Promise<Array<[number, string]>> {
  return log.evaluate((el) =>
    [...el.querySelectorAll('.message-row')].flatMap((row) => {
      const text = row.querySelector('.msg-text')?.textContent;
      return text ? [[Number(row.getAttribute('data-index')), text] as [number, string]] : [];
    }),
  );
}

/** Where a message's bubble is, from the top of the list's visible area. */
function offsetFromTop(log: Locator, text: string): Promise<number> {
  return log.getByText(text, { exact: true }).evaluate((e) => {
    const box = e.closest('[role="log"]')!.getBoundingClientRect();
    return e.getBoundingClientRect().top - box.top;
  });
}

test('a long conversation opens at its newest page, older pages come in on scrolling up, each message once', async ({
  unlimitedRelay: relay,
  app,
}) => {
  const pete = tempDir('cli-pete');
  const init = await clientCli(pete, ['init', '--relay', relay.url, '--handle', 'pete_history']);
  expect(init.code, init.stderr).toBe(0);
  const hana = await app('hana');
  const { page } = hana;
  await createAccount(page, { relayUrl: relay.url, handle: 'hana_history' });
  await messageFromDirectory(page, 'pete_history');
  await send(page, 'Send me the whole history');
  const sent = await sendHistory(pete, '@hana_history', SENT, 'History');
  expect(sent.code, sent.stderr).toBe(0);

  // Everything has arrived once the last one is the conversation's preview; a reload then opens it afresh.
  await goTo(page, 'Chats');
  await expect(
    page.getByRole('list', { name: 'Conversation list' }).getByRole('button', { name: /@pete_history/ }),
  ).toContainText(`History ${SENT}`, { timeout: 60_000 });
  const watch = await watchListCalls(page);
  const { calls } = watch;
  await page.reload();
  await openConversation(page, '@pete_history');
  const log = messages(page);
  await expect(log.getByText(`History ${SENT}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEditable();

  // Only the newest page was asked for, and the oldest message is not in the page.
  await expect.poll(() => calls[0]?.listed).toBeGreaterThan(0);
  expect(calls).toHaveLength(1);
  expect(calls[0].before).toBeUndefined();
  expect(calls[0].listed).toBeLessThan(SENT);
  await expect(log.getByText('History 001', { exact: true })).toHaveCount(0);

  // At the top of the newest page, the next older page is prepended above what the reader sees.
  const loading = log.getByRole('status').getByText('Loading earlier messages');
  const oldestShown = `History ${String(SENT + 1 - calls[0].listed!).padStart(3, '0')}`;
  watch.hold = true;
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(loading).toBeVisible();
  await expect(log.getByText(oldestShown, { exact: true })).toBeVisible();
  const yBefore = await offsetFromTop(log, oldestShown);
  watch.hold = false;
  watch.release();
  await expect(loading).toHaveCount(0);
  expect(calls).toHaveLength(2);
  expect(calls[1].listed).toBeGreaterThan(0);
  await expect(log.getByText(oldestShown, { exact: true })).toBeVisible();
  // within the few pixels of the gap that goes when it no longer starts a run of the same author
  expect(Math.abs((await offsetFromTop(log, oldestShown)) - yBefore)).toBeLessThan(10);

  // On up to the start; then down again, noting every row passed: each message once, all of them.
  const seen = new Map<number, string>();
  for (let step = 0; step < 200 && !(await log.getByText('History 001', { exact: true }).isVisible()); step++) {
    for (const [i, text] of await renderedRows(log)) seen.set(i, text);
    await log.evaluate((el) => (el.scrollTop = Math.max(0, el.scrollTop - el.clientHeight)));
    await expect(loading).toHaveCount(0);
  }
  await expect(log.getByText('Send me the whole history', { exact: true })).toBeVisible();
  await log.evaluate((el) => (el.scrollTop = 0));
  await page.screenshot({ path: test.info().outputPath('scrolled-to-the-start.png') });
  // Rows are numbered from the top, which moves as pages come in: take them again from the start down.
  seen.clear();
  for (let step = 0; step < 200; step++) {
    for (const [i, text] of await renderedRows(log)) seen.set(i, text);
    // most of a screen at a time, and read only once the list has drawn what scrolled in
    const atEnd = await log.evaluate(async (el) => {
      el.scrollTop += Math.floor(el.clientHeight * 0.6);
      // (this runs in the page; the e2e files are typed without the DOM library)
      const frame = (globalThis as unknown as { requestAnimationFrame: (cb: () => void) => void })
        .requestAnimationFrame;
      await new Promise<void>((resolve) => frame(() => frame(resolve)));
      return el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
    });
    if (atEnd && seen.size > SENT) break;
  }
  for (const [i, text] of await renderedRows(log)) seen.set(i, text);
  // (sorted: messages sent in the same millisecond show in the order they arrived)
  const texts = [...seen.values()].sort();
  const expected = [
    'Send me the whole history',
    ...Array.from({ length: SENT }, (_, i) => `History ${String(i + 1).padStart(3, '0')}`),
  ].sort();
  expect(texts).toEqual(expected);
  // No page was asked for twice.
  const befores = calls.slice(1).map((c) => c.before);
  expect(new Set(befores).size).toBe(befores.length);
});
