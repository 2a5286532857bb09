/**
 * First use without stumbling: each place a new user could stumble, driven the way they would
 * meet it (web mode, a real relay, a real browser).
 */
import type { Page } from '@playwright/test';
import { claimHandle, confirmWords, createAccount, goTo, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { clientCli, cliOk, tempDir, TestRelay } from './harness.js';

/**
 * What a CLI profile has received so far: each call syncs once and adds what came since the
 * last (a message is printed by one sync only), for `expect.poll`.
 */
function inboxOf(profile: string) {
  const texts: string[] = [];
  return {
    texts,
    sync: async (): Promise<string[]> => {
      const r = await clientCli(profile, ['sync', '--json']);
      texts.push(...(r.json as { text: string }[]).map((l) => l.text));
      return texts;
    },
  };
}

test('quitting web mode (Ctrl-C or SIGTERM) shuts down in order and exits 0 with one line', async ({ app }) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const a = await app(`quit-${signal}`);
    await createAccount(a.page, { relayUrl: 'this computer', handle: `quitter_${signal.toLowerCase()}` });
    await goTo(a.page, 'Chats');
    const { code, output } = await a.quit(signal);
    expect(output).not.toMatch(/TypeError|database connection is not open|Error:/);
    expect(code).toBe(0);
    // the one-time launch code logs when the tab uses it; what shutdown prints is the rest
    const afterLink = output
      .slice(output.indexOf(a.openUrl) + a.openUrl.length)
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('the launch link was used'));
    expect(afterLink).toEqual(['web: stopped']);
  }
});

async function startChat(page: Page, to: string): Promise<void> {
  await goTo(page, 'Chats');
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('dialog', { name: 'New chat' }).getByLabel('Address or handle').fill(to);
  await page.getByRole('dialog', { name: 'New chat' }).getByRole('button', { name: 'Start chat' }).click();
  // The dialog stays open (and the page under it inert) until the conversation's messages are
  // loaded, while the composer behind it is already visible: typing before it closes goes into
  // the dialog's field, and is cleared with it.
  await expect(page.getByRole('dialog', { name: 'New chat' })).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

test('a long paste is never cut: the count shows near the limit, too long is refused or split', async ({
  relay,
  app,
}) => {
  const nora = tempDir('cli-nora');
  await cliOk(nora, ['init', '--relay', relay.url, '--handle', 'nora_reads']);
  const a = await app('longpaste');
  await createAccount(a.page, { relayUrl: relay.url, handle: 'longpaste' });
  await startChat(a.page, '@nora_reads');
  const box = a.page.getByRole('textbox', { name: 'Message' });

  await box.fill('x'.repeat(19_000));
  await expect(a.page.getByText('19,000 / 20,000')).toBeVisible();

  // about 100 KB, the size of paste that was cut to its first 20,000 characters
  const paste = Array.from({ length: 33_334 }, (_, i) => `w${i % 10}`).join(' ');
  await box.fill(paste);
  expect(await box.inputValue()).toHaveLength(paste.length);
  await expect(a.page.getByRole('alert')).toContainText(
    `This message is ${paste.length.toLocaleString('en-US')} characters; one message can hold up to 20,000`,
  );
  await expect(a.page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await box.press('Enter');
  expect(await box.inputValue()).toHaveLength(paste.length);

  const split = a.page.getByRole('button', { name: /^Send as \d+ messages$/ });
  const parts = Number((await split.textContent())!.match(/\d+/)![0]);
  expect(parts).toBeGreaterThanOrEqual(5);
  await split.click();
  await expect(box).toHaveValue('');
  // Nora receives every part, in order, and together they are the whole paste.
  const inbox = inboxOf(nora);
  await expect.poll(async () => (await inbox.sync()).length, { timeout: 60_000 }).toBe(parts);
  const texts = inbox.texts;
  expect(texts.every((t) => t.length <= 20_000)).toBe(true);
  expect(texts.join(' ') === paste).toBe(true);
});

// stake-gate needs a relay that can read stakes from a chain (anvil); without one the policy is refused
test('a request to a stake-gated person says what happened, never "Request sent"', async ({
  stakeRelay: relay,
  app,
}) => {
  const kate = tempDir('cli-kate');
  await cliOk(kate, ['init', '--relay', relay.url, '--handle', 'kate_gated']);
  await cliOk(kate, ['policy', 'stake-gate', '--stake', '0.05']);

  const leo = await app('leo');
  await createAccount(leo.page, { relayUrl: relay.url, handle: 'leo' });
  await goTo(leo.page, 'Directory');
  await leo.page.getByLabel('Search the directory').fill('kate_gated');
  await leo.page.getByRole('button', { name: 'Send request to @kate_gated' }).click();
  const dialog = leo.page.getByRole('dialog');
  await dialog.getByLabel('Intro').fill('Hi Kate, Leo from the meetup');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'Not delivered: @kate_gated only accepts people they know or who pay a stake (0.05 ETH)',
  );
  await expect(leo.page.getByText(/Request sent/)).toHaveCount(0);
  const synced = await clientCli(kate, ['sync', '--json']);
  expect(synced.json).toEqual([]);
});

test('a private key without 0x, as wallets export it, is imported', async ({ app }) => {
  const a = await app('bykey-noprefix');
  await a.page.getByRole('button', { name: 'I already have a wallet' }).click();
  await a.page.getByRole('radio', { name: 'Private key' }).check();
  await a.page
    .getByRole('textbox', { name: 'Private key' })
    .fill('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  await a.page.getByRole('button', { name: 'Import wallet' }).click();
  await a.page.getByRole('button', { name: 'Skip' }).click();
  await expect(a.page.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  await expect(a.page.getByText('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBeVisible();
});

test('a tab from before a restart says so, and recovers when the new link is pasted into it', async ({ app }) => {
  const a = await app('restarted');
  await expect(a.page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
  const fresh = await a.restartProcess();
  // The old tab, reloaded: its secret is from the earlier start.
  await a.page.reload();
  await expect(a.page.getByRole('heading', { name: 'This tab is from an earlier start of the app' })).toBeVisible();
  await expect(a.page.getByRole('alert')).toContainText('Open the new link the app printed');
  // Pasting the new link changes only the fragment; the tab picks it up.
  await a.page.goto(fresh);
  await expect(a.page.getByRole('button', { name: 'Create a new wallet' })).toBeVisible();
});

test('a device is revoked only after confirming, never the one in use; a revoked device is told so at once', async ({
  relay,
  app,
}) => {
  const ann = await app('ann');
  const words = await createAccount(ann.page, { relayUrl: relay.url, handle: 'ann_devices' });
  const [phone, tablet] = [tempDir('cli-ann-phone'), tempDir('cli-ann-tablet')];
  await cliOk(phone, ['init', '--relay', relay.url, '--mnemonic-env', 'WORDS'], { WORDS: words.join(' ') });
  const tabletKey = (
    (await cliOk(tablet, ['init', '--relay', relay.url, '--mnemonic-env', 'WORDS'], { WORDS: words.join(' ') }))[0] as {
      deviceKey: string;
    }
  ).deviceKey;

  await goTo(ann.page, 'Settings');
  const devices = ann.page.getByRole('list', { name: 'Devices', exact: true });
  await expect(devices.getByRole('listitem')).toHaveCount(3);
  // the device in use offers no Revoke at all
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' }).getByRole('button')).toHaveCount(0);
  await ann.page.getByRole('button', { name: `Revoke device ${tabletKey.slice(0, 8)}` }).click();
  const confirm = ann.page.getByRole('group', { name: `Confirm revoking device ${tabletKey.slice(0, 8)}` });
  await expect(confirm).toContainText('Sign it out for good?');
  await expect(devices.getByRole('listitem')).toHaveCount(3);
  await confirm.getByRole('button', { name: 'Revoke device' }).click();
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  // its API key went with it, and the list says so without a reload
  await expect(
    ann.page.getByRole('list', { name: 'API keys' }).getByRole('listitem').filter({ hasText: 'Revoked' }),
  ).toHaveCount(1);

  // The phone revokes the app's device: the app says so, and keeps its conversations on screen.
  const listed = (await cliOk(phone, ['devices']))[0] as Array<{ publicKey: string; current: boolean }>;
  const appKey = listed.find((d) => !d.current)!.publicKey;
  await cliOk(phone, ['revoke-device', appKey]);
  await expect(ann.page.getByRole('alert').filter({ hasText: 'This device was revoked' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(ann.page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(ann.page.getByText(/Offline/)).toHaveCount(0);
});

test('Settings switches relay, signed in there; the built-in relay stops once nobody uses it, and stays stopped at the next start', async ({
  relay,
  app,
}) => {
  const sam = await app('sam');
  await createAccount(sam.page, { relayUrl: 'this computer', handle: 'sam_switches' });
  await goTo(sam.page, 'Settings');
  const relaySection = sam.page.getByRole('region', { name: 'Relay' });
  const running = relaySection.getByText(/^Running at http:\/\/127\.0\.0\.1:\d+$/);
  await expect(running).toBeVisible();
  const localUrl = (await running.textContent())!.replace('Running at ', '');

  await relaySection.getByRole('button', { name: 'Change relay' }).click();
  await relaySection.getByRole('radio', { name: 'A relay address' }).check();
  await relaySection.getByLabel('Relay URL').fill(relay.url);
  await relaySection.getByRole('button', { name: 'Switch relay' }).click();
  await expect(relaySection.getByText(relay.url)).toBeVisible();
  await expect(relaySection.getByText('Connected', { exact: true })).toBeVisible();
  await expect(relaySection.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(fetch(localUrl)).rejects.toThrow();

  const fresh = await sam.restartProcess();
  // the tab picks the new link up itself
  await sam.page.goto(fresh);
  await goTo(sam.page, 'Settings');
  await expect(relaySection.getByText(relay.url)).toBeVisible();
  await expect(relaySection.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(fetch(localUrl)).rejects.toThrow();
});

test('a message waiting in the outbox goes out on the relay the profile switches to', async ({ relay, app }) => {
  const other = new TestRelay();
  await other.start();
  try {
    const nora = tempDir('cli-nora-b');
    const noraAddress = (
      (await cliOk(nora, ['init', '--relay', other.url, '--handle', 'nora_elsewhere']))[0] as { address: string }
    ).address;
    const sam = await app('sam');
    await createAccount(sam.page, { relayUrl: relay.url, handle: 'sam_switches' });
    const relaySection = sam.page.getByRole('region', { name: 'Relay' });

    // Written while that relay is away, the message waits; switched to another relay, it goes out there.
    await relay.stop();
    await startChat(sam.page, noraAddress);
    const box = sam.page.getByRole('textbox', { name: 'Message' });
    await box.fill('written before the switch');
    await box.press('Enter');
    await expect(sam.page.getByRole('log', { name: 'Messages' }).getByText('Waiting to send')).toBeVisible({
      timeout: 60_000,
    });
    await goTo(sam.page, 'Settings');
    await relaySection.getByRole('button', { name: 'Change relay' }).click();
    await relaySection.getByRole('radio', { name: 'A relay address' }).check();
    await relaySection.getByLabel('Relay URL').fill(other.url);
    await relaySection.getByRole('button', { name: 'Switch relay' }).click();
    await expect(relaySection.getByText(other.url)).toBeVisible();
    await expect.poll(inboxOf(nora).sync, { timeout: 60_000 }).toEqual(['written before the switch']);
  } finally {
    await other.dispose();
  }
});

test('offline, a message to a contact known by @handle waits in the outbox and goes out when the relay is back', async ({
  relay,
  app,
}) => {
  const nora = tempDir('cli-nora-offline');
  await cliOk(nora, ['init', '--relay', relay.url, '--handle', 'nora_offline']);
  const tom = await app('tom');
  await createAccount(tom.page, { relayUrl: relay.url, handle: 'tom_offline' });
  await startChat(tom.page, '@nora_offline');
  await send(tom.page, 'hello while online');

  await relay.stop();
  // by @handle again, as a person would type it: the handle is known on this computer
  await startChat(tom.page, '@nora_offline');
  await send(tom.page, 'written offline');
  // (the first message too may still be waiting if the relay went before it was sent)
  await expect(tom.page.getByRole('log', { name: 'Messages' }).getByText('Waiting to send').last()).toBeVisible({
    timeout: 60_000,
  });
  await expect(
    tom.page
      .getByRole('status')
      .filter({ hasText: /^Offline/ })
      .first(),
  ).toBeVisible();

  await relay.start();
  await expect.poll(inboxOf(nora).sync, { timeout: 90_000 }).toEqual(['hello while online', 'written offline']);
});

test('a mistyped relay or address is called one, under the field, and the error goes once the input changes', async ({
  relay,
  app,
}) => {
  const uma = await app('uma');
  const p = uma.page;
  await p.getByRole('button', { name: 'Create a new wallet' }).click();
  await expect(p.getByRole('list', { name: 'Recovery phrase' }).getByRole('listitem')).toHaveCount(12);
  const words = (await p.getByRole('list', { name: 'Recovery phrase' }).locator('.phrase-word').allTextContents()).map(
    (w) => w.trim(),
  );
  await p.getByLabel('I have written these words down somewhere safe').check();
  await p.getByRole('button', { name: 'Continue' }).click();
  await confirmWords(p, words);
  await p.getByRole('radio', { name: 'A relay address' }).check();
  await p.getByLabel('Relay URL').fill('htp://127.0.0.1:7300');
  await p.getByLabel('Relay URL').blur();
  await expect(p.getByText('A relay address starts with http:// or https://, not htp://.')).toBeVisible();
  await expect(p.getByRole('button', { name: 'Connect' })).toBeDisabled();
  await p.getByLabel('Relay URL').fill(relay.url);
  await expect(p.getByText(/not htp:\/\//)).toHaveCount(0);
  await p.getByRole('button', { name: 'Connect' }).click();
  await claimHandle(p, 'uma_typos');

  await goTo(p, 'Chats');
  await p.getByRole('button', { name: 'New chat' }).click();
  const dialog = p.getByRole('dialog', { name: 'New chat' });
  await dialog.getByLabel('Address or handle').fill('0x123');
  await dialog.getByRole('button', { name: 'Start chat' }).click();
  await expect(dialog.getByRole('alert')).toContainText('“0x123” is not a valid address');
  await expect(dialog.getByRole('alert')).not.toContainText('handle');
  await dialog.getByLabel('Address or handle').press('4');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Typos');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Typos' })).toBeVisible();
  await p.getByLabel('Add a member').fill('0x' + 'g'.repeat(40));
  await p.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(p.getByRole('alert').filter({ hasText: 'is not a valid address' })).toContainText(
    'after 0x an address has only the digits 0-9 and letters a-f',
  );
  await p.getByLabel('Add a member').fill('@uma');
  await expect(p.getByRole('alert').filter({ hasText: 'is not a valid address' })).toHaveCount(0);
});
