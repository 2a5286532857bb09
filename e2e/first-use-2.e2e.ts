/**
 * More of first use: each place a new user could stumble, driven the way they would meet it.
 * One app (and a headless person or two) serves several stories, so the file adds seconds.
 * Every changed screen is checked by axe in light and dark, and shot into /tmp/ux-shots/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

const SHOTS = '/tmp/ux-shots';
mkdirSync(SHOTS, { recursive: true });

/** axe in light and dark, and a picture of each, for a person to look at. */
async function check(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SHOTS}/${name.replace(/\W+/g, '-')}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const SHOTS2 = '/tmp/ux-shots2';
mkdirSync(SHOTS2, { recursive: true });

/** A picture in light and dark, each after the colours' transitions have finished. */
async function shot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS2}/${name.replace(/\W+/g, '-')}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A CLI person with a handle on `relayUrl`; returns the profile folder and the recovery phrase. */
async function cliPerson(
  relayUrl: string,
  handle: string,
): Promise<{ profile: string; mnemonic: string; address: string }> {
  const profile = tempDir(`cli-${handle}`);
  const [out] = (await cliOk(profile, ['init', '--relay', relayUrl, '--handle', handle, '--show-mnemonic'])) as Array<{
    mnemonic: string;
    address: string;
  }>;
  return { profile, mnemonic: out.mnemonic, address: out.address };
}

test('the message menu works with the mouse: it opens above the next message and inside the window', async ({
  relay,
  app,
}) => {
  const alice = await app('alice');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice_menu' });
  await cliPerson(relay.url, 'bob_menu');
  await messageFromDirectory(alice.page, 'bob_menu');
  await send(alice.page, 'first, to be edited');
  await send(alice.page, 'second, right under it');
  await send(alice.page, 'third');

  // The older message's menu opens over the newer one below it; the click lands on "Edit".
  const older = messages(alice.page).locator('.msg', { hasText: 'first, to be edited' });
  await older.hover();
  await older.getByRole('button', { name: 'Message actions' }).click();
  const menu = alice.page.getByRole('menu', { name: 'Message actions' });
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  const view = alice.page.viewportSize()!;
  expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height).toBe(true);
  // what the pointer meets at the middle of each item is that item, not the next message's row
  const hits = await menu.getByRole('menuitem').evaluateAll((items) =>
    items.map((item) => {
      const r = item.getBoundingClientRect();
      return item.contains(item.ownerDocument.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
    }),
  );
  expect(hits).toEqual([true, true]);
  await check(alice.page, 'message menu open');
  await alice.page.getByRole('menuitem', { name: 'Edit' }).click();
  await alice.page.getByRole('textbox', { name: 'Edit message' }).fill('first, edited with the mouse');
  await alice.page.getByRole('textbox', { name: 'Edit message' }).press('Enter');
  await expect(messages(alice.page).getByText('first, edited with the mouse')).toBeVisible();

  // A click elsewhere closes it; so does a second click on its button.
  const second = messages(alice.page).locator('.msg', { hasText: 'second, right under it' });
  await second.hover();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await expect(menu).toBeVisible();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await expect(menu).toBeHidden();
  await second.getByRole('button', { name: 'Message actions' }).click();
  await alice.page.getByRole('textbox', { name: 'Message' }).click();
  await expect(menu).toBeHidden();
});

test('a dead relay in Settings is tried, refused and left: the app stays on its relay; offline is said in words, the raw text under Details', async ({
  relay,
  app,
}) => {
  const sam = await app('sam');
  await createAccount(sam.page, { relayUrl: relay.url, handle: 'sam_stays' });
  await goTo(sam.page, 'Settings');
  const section = sam.page.getByRole('region', { name: 'Relay' });
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();
  // a disabled control says why: nothing to save yet
  const save = sam.page.getByRole('button', { name: 'Save policy' });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription('Nothing to save: this is the policy in use.');
  await save.scrollIntoViewIfNeeded();
  await shot(sam.page, 'settings save policy off');

  // 2. Nothing listens on port 9 of this computer (discard): the switch fails and changes nothing.
  await section.getByRole('button', { name: 'Change relay' }).click();
  await section.getByRole('radio', { name: 'A relay address' }).check();
  await section.getByLabel('Relay URL').fill('http://127.0.0.1:9');
  await section.getByRole('button', { name: 'Switch relay' }).click();
  await expect(section.getByRole('alert')).toContainText(
    `Can't reach the relay. Check its address, or whether it is running. You are still on ${relay.url}.`,
  );
  await expect(section.getByText(relay.url, { exact: true })).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();
  await expect(sam.page.getByText(/Offline/)).toHaveCount(0);
  await check(sam.page, 'settings relay switch refused');
  await section.getByRole('button', { name: 'Cancel' }).click();
  await expect(section.getByRole('button', { name: 'Change relay' })).toBeVisible();
  await expect(section.getByText(relay.url, { exact: true })).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();

  // ... and after a restart it is still the relay it was
  await sam.page.goto(await sam.restartProcess());
  await goTo(sam.page, 'Settings');
  await expect(section.getByText(relay.url, { exact: true })).toBeVisible();
  await expect(section.getByText('Connected', { exact: true })).toBeVisible();

  // 10. The relay goes away: the banner says so in words; the network's own text waits under Details.
  await relay.stop();
  const banner = sam.page.getByRole('status').filter({ hasText: /^Offline/ });
  await expect(banner).toContainText("Offline — Can't reach the relay. Check its address, or whether it is running.", {
    timeout: 60_000,
  });
  await expect(sam.page.getByText(/ECONNREFUSED/).filter({ visible: true })).toHaveCount(0);
  await banner.getByText('Details').click();
  await expect(banner.getByText(/ECONNREFUSED/)).toBeVisible();
  await check(sam.page, 'offline banner details');
});

/** The page fits the window: nothing to scroll to see the step's buttons. */
async function fitsWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { scrollingElement: { scrollHeight: number; clientHeight: number } } }
    ).document.scrollingElement;
    return root.scrollHeight <= root.clientHeight;
  });
}

test('onboarding keeps the passphrase from welcome to import, says why Connect is off, and every step fits the window', async ({
  app,
}) => {
  const ann = await app('ann-import');
  const p = ann.page;
  expect(await fitsWindow(p)).toBe(true);

  // 3. typed on the welcome screen, still there on the import screen, and it protects the wallet
  await p.getByLabel('Passphrase for this computer (recommended)').fill('correct horse battery');
  await p.getByRole('button', { name: 'I already have a wallet' }).click();
  await expect(p.getByLabel('Passphrase for this computer (recommended)')).toHaveValue('correct horse battery');
  expect(await fitsWindow(p)).toBe(true);
  await check(p, 'onboarding import');
  const importButton = p.getByRole('button', { name: 'Import wallet' });
  await expect(importButton).toBeDisabled();
  await expect(importButton).toHaveAccessibleDescription('Enter your recovery phrase first.');
  await shot(p, 'onboarding import off');
  await p.getByRole('radio', { name: 'Private key' }).check();
  await p
    .getByRole('textbox', { name: 'Private key' })
    .fill('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  await p.getByRole('button', { name: 'Import wallet' }).click();
  await p.getByRole('button', { name: 'Skip' }).click();

  // 5. a mistyped scheme: Connect is off, and says why, before the field is even left
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
  expect(await fitsWindow(p)).toBe(true);
  await p.getByRole('radio', { name: 'A relay address' }).check();
  await p.getByLabel('Relay URL').fill('htp://127.0.0.1:7300');
  const connect = p.getByRole('button', { name: 'Connect' });
  await expect(connect).toBeDisabled();
  await expect(connect).toHaveAccessibleDescription('A relay address starts with http:// or https://, not htp://.');
  await expect(p.getByText('A relay address starts with http:// or https://, not htp://.')).toBeVisible();
  expect(await fitsWindow(p)).toBe(true);
  await check(p, 'onboarding relay connect off');

  // the passphrase typed on the welcome screen is the one the wallet now asks for
  await p.goto(await ann.restartProcess());
  await p.getByLabel('Passphrase').fill('correct horse battery');
  await p.getByRole('button', { name: 'Unlock' }).click();
  await expect(p.getByRole('heading', { name: 'Choose your relay' })).toBeVisible();
});

test('a request says where it waits; the conversation is tidy; a held message asks the question itself; lists and notices follow what they show; a disabled switch says why', async ({
  relay,
  app,
}) => {
  test.slow();
  const alice = await app('alice');
  const p = alice.page;
  const words = await createAccount(p, { relayUrl: relay.url, handle: 'alice_two' });
  const bob = await cliPerson(relay.url, 'bob_two');

  // 9. Bob sees a request before accepting it, and the note says so
  await messageFromDirectory(p, 'bob_two');
  await send(p, 'Hi Bob, it is Alice');
  await expect(
    messages(p).getByText('Sent as a contact request: @bob_two sees it under Requests and can accept you there.'),
  ).toBeVisible();
  const [pending] = (await cliOk(bob.profile, ['requests'])) as Array<Array<{ address: string }>>;
  expect(pending.map((r) => r.address)).toHaveLength(1);
  const aliceAddress = pending[0].address;

  // 11. the one-line box has no scroll bar; Verify and Copy do not touch; "Latest" covers no message
  const box = p.getByRole('textbox', { name: 'Message' });
  expect(await box.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).overflowY)).toBe('hidden');
  const verify = (await p.locator('.conv-header').getByRole('button', { name: 'Verify' }).boundingBox())!;
  const copy = (await p
    .locator('.conv-header')
    .getByRole('button', { name: 'Copy @bob_two’s address' })
    .boundingBox())!;
  expect(copy.x - (verify.x + verify.width)).toBeGreaterThanOrEqual(4);
  // the header names Bob once (the whole address on hover), and the lock note keeps to one line under it
  const header = p.locator('.conv-header');
  await expect(header.getByRole('heading', { name: '@bob_two' })).toBeVisible();
  await expect(header.locator('h2 [title]')).toHaveAttribute('title', new RegExp(`^@bob_two\n${bob.address}$`, 'i'));
  expect((await header.locator('.conv-header-sub').boundingBox())!.height).toBeLessThan(24);
  await shot(p, 'conversation header');

  // 4. Alice verifies Bob; Bob adds a computer; her next message is held, and the note asks the question
  await cliOk(bob.profile, ['accept', aliceAddress]);
  await p.locator('.conv-header').getByRole('button', { name: 'Verify' }).click();
  const dialog = p.getByRole('dialog', { name: 'Verify @bob_two' });
  await dialog.getByRole('button', { name: 'Mark as verified' }).click();
  await expect(dialog.getByRole('button', { name: 'Remove verification' })).toBeVisible();
  await p.keyboard.press('Escape');
  // Written before Bob's laptop appears and sent after: typing then asked nothing more of the relay,
  // so the change is found by the send itself (the case the composer's question cannot catch).
  await box.fill('held until I answer');
  const bobLaptop = tempDir('cli-bob-laptop');
  await cliOk(bobLaptop, ['init', '--relay', relay.url, '--mnemonic-env', 'BOB_WORDS'], { BOB_WORDS: bob.mnemonic });
  await box.press('Enter');
  const held = messages(p).locator('.msg', { hasText: 'held until I answer' });
  await expect(held.getByRole('status')).toHaveText(
    /Not sent: @bob_two's devices changed since you verified their safety number\. Verify it again, or send anyway\./,
    { timeout: 30_000 },
  );
  await expect(held).not.toContainText('0x');
  await expect(held.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(held.getByRole('button', { name: 'Verify first' })).toBeVisible();
  // enough messages to scroll: "Latest" then takes a strip of its own, under the list
  await cliOk(bob.profile, [
    'send',
    aliceAddress,
    Array.from({ length: 40 }, (_, i) => `line ${i + 1} from Bob`).join('\n'),
  ]);
  await expect(messages(p).getByText(/line 40 from Bob/)).toBeVisible({ timeout: 30_000 });
  await messages(p).evaluate((el) => el.scrollTo(0, 0));
  const latest = p.getByRole('button', { name: 'Jump to latest' });
  await expect(latest).toBeVisible();
  const list = (await messages(p).boundingBox())!;
  expect((await latest.boundingBox())!.y).toBeGreaterThanOrEqual(list.y + list.height);
  await check(p, 'conversation held message');
  await latest.click();
  await held.getByRole('button', { name: 'Send anyway' }).click();
  await expect(held.getByRole('img', { name: /Sent|Delivered|Read/ })).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => ((await cliOk(bobLaptop, ['sync', '--json'])) as Array<{ text: string }>).map((m) => m.text), {
      timeout: 60_000,
    })
    .toContain('held until I answer');

  // 8. a new device of Alice's, revoked here: the notice says removed, and no longer "revoke it below"
  const phone = tempDir('cli-alice-phone');
  const phoneKey = (
    (await cliOk(phone, ['init', '--relay', relay.url, '--mnemonic-env', 'WORDS'], { WORDS: words.join(' ') }))[0] as {
      deviceKey: string;
    }
  ).deviceKey;
  await goTo(p, 'Settings');
  const notices = p.getByRole('list', { name: 'Changes to your devices' });
  await expect(notices).toContainText('If that was not you, revoke it below.');
  await p.getByRole('button', { name: `Revoke device ${phoneKey.slice(0, 8)}` }).click();
  await p
    .getByRole('group', { name: `Confirm revoking device ${phoneKey.slice(0, 8)}` })
    .getByRole('button', { name: 'Revoke device' })
    .click();
  await expect(notices).toContainText('was removed');
  await expect(notices).not.toContainText('revoke it below');

  // 7. the built-in relay is off (Alice uses another): sharing it is off too, and says why
  const share = p.getByRole('switch', { name: 'Share on my network' });
  await expect(share).toBeDisabled();
  await expect(share).toHaveAccessibleDescription(
    'Turn on “Run a relay on this computer” first: this shares that relay.',
  );
  await expect(p.getByText('Turn on “Run a relay on this computer” first')).toBeVisible();
  await share.scrollIntoViewIfNeeded();
  await check(p, 'settings notices and share');

  // 8. a member added in the open group counts in the list beside it at once
  await goTo(p, 'Groups');
  await p.getByRole('button', { name: 'New group' }).click();
  await p.getByRole('dialog', { name: 'New group' }).getByLabel('Group name').fill('Counted');
  await p.getByRole('dialog', { name: 'New group' }).getByRole('button', { name: 'Create group' }).click();
  await expect(p.getByRole('heading', { name: 'Counted' })).toBeVisible();
  await p.getByLabel('Add a member').fill('@bob_two');
  await p.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(p.locator('main')).toContainText('2 members');
  const inList = p.getByRole('button', { name: /Counted/ }).first();
  await expect(inList).toContainText('2 members');
  await check(p, 'groups member count');
});
