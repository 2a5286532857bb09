/**
 * Trust, as a person meets it: comparing safety numbers and marking a contact
 * verified; the notice, the lost mark and the one question when that contact adds a device;
 * a new device of one's own in Settings; and making a group member an admin, who can then
 * manage members. The other people are headless client profiles.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { createAccount, goTo, messageFromDirectory, messages, openConversation, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

/** A CLI person with a handle; returns the profile folder and the recovery phrase. */
async function cliPerson(relayUrl: string, handle: string): Promise<{ profile: string; mnemonic: string }> {
  const profile = tempDir(`cli-${handle}`);
  const [out] = (await cliOk(profile, ['init', '--relay', relayUrl, '--handle', handle, '--show-mnemonic'])) as Array<{
    mnemonic: string;
  }>;
  return { profile, mnemonic: out.mnemonic };
}

/** Another computer of the same wallet, set up from its recovery phrase. */
async function secondDevice(relayUrl: string, words: string): Promise<string> {
  const profile = tempDir('cli-second-device');
  await cliOk(profile, ['init', '--relay', relayUrl, '--mnemonic-env', 'TRUST_WORDS'], { TRUST_WORDS: words });
  return profile;
}

function header(page: Page) {
  return page.locator('.conv-header');
}

test('verify a contact by safety number; their new device shows a notice, clears the mark and asks once', async ({
  relay,
  app,
}) => {
  test.slow();
  const alice = await app('alice');
  await createAccount(alice.page, { relayUrl: relay.url, handle: 'alice' });
  const bob = await cliPerson(relay.url, 'bob');
  await messageFromDirectory(alice.page, 'bob');
  await send(alice.page, 'Hi Bob, shall we compare safety numbers?');

  // The number in the app is the one Bob's client shows for Alice.
  await header(alice.page).getByRole('button', { name: 'Verify' }).click();
  const dialog = alice.page.getByRole('dialog', { name: 'Verify @bob' });
  const digits = dialog.getByLabel(/^Safety number: /);
  await expect(digits).toBeVisible();
  const [bobSees] = (await cliOk(bob.profile, ['safety-number', '@alice'])) as Array<{
    safetyNumber: string;
    verified: boolean;
  }>;
  expect(bobSees.safetyNumber).toMatch(/^(\d{5} ){11}\d{5}$/);
  await expect(digits).toHaveAttribute('aria-label', `Safety number: ${bobSees.safetyNumber}`);
  await expect(dialog.getByRole('img', { name: 'QR code of your safety number with @bob' })).toBeVisible();
  await expectAccessible(alice.page, 'Verify dialog');
  await alice.page.screenshot({ path: test.info().outputPath('verify-dialog.png') });

  await dialog.getByRole('button', { name: 'Mark as verified' }).click();
  await expect(dialog.getByText(/Verified \w+ \d+, \d{4}|Verified \d/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Remove verification' })).toBeVisible();
  await alice.page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(header(alice.page).getByRole('img', { name: 'Safety number verified' })).toBeVisible();

  // Bob sets up a second computer. Opening the conversation again rechecks a verified contact's devices.
  await secondDevice(relay.url, bob.mnemonic);
  await goTo(alice.page, 'Settings');
  await openConversation(alice.page, '@bob');
  const notices = alice.page.getByRole('list', { name: 'Device changes' });
  await expect(notices.getByRole('listitem')).toHaveText([/@bob added a new device on \w+ \d+, \d{4}/], {
    timeout: 20_000,
  });
  await expect(header(alice.page).getByRole('img', { name: 'Safety number verified' })).toHaveCount(0);
  await expect(alice.page.getByText('You had verified @bob: the mark was removed.')).toBeVisible();
  await expectAccessible(alice.page, 'Conversation with a device notice');
  await alice.page.screenshot({ path: test.info().outputPath('device-notice.png') });

  // The first message after the change asks once; "Send anyway" sends it, and the next goes without asking.
  const box = alice.page.getByRole('textbox', { name: 'Message' });
  await box.fill('Is that new device yours?');
  await box.press('Enter');
  const ask = alice.page.getByRole('dialog', { name: 'Safety number changed' });
  await expect(ask).toContainText('@bob’s devices changed since you verified their safety number');
  await expectAccessible(alice.page, 'Safety number changed question');
  await ask.getByRole('button', { name: 'Send anyway' }).click();
  await expect(ask).toBeHidden();
  await expect(messages(alice.page).getByText('Is that new device yours?')).toBeVisible();
  await expect(box).toHaveValue('');
  await send(alice.page, 'Thanks!');
  await expect(messages(alice.page).getByText('Thanks!')).toBeVisible();
  await expect(ask).toBeHidden();
});

test('a new device of mine shows in Settings', async ({ relay, app }) => {
  test.slow();
  const cara = await app('cara');
  const words = await createAccount(cara.page, { relayUrl: relay.url, handle: 'cara' });
  await goTo(cara.page, 'Settings');
  const devices = cara.page.getByRole('list', { name: 'Devices', exact: true });
  await expect(devices.getByRole('listitem')).toHaveCount(1);

  await secondDevice(relay.url, words.join(' '));
  await goTo(cara.page, 'Chats');
  await goTo(cara.page, 'Settings');
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  const mine = cara.page.getByRole('list', { name: 'Changes to your devices' });
  await expect(mine.getByRole('listitem')).toHaveText([
    /A new device of yours \(.+\) was added on .+ If that was not you, revoke it below\.$/,
  ]);
  await expectAccessible(cara.page, 'Settings with a device notice');
  await cara.page
    .getByRole('region', { name: 'Devices' })
    .screenshot({ path: test.info().outputPath('settings-device-notice.png') });
});

test('the creator makes a member admin, and the admin manages members in the app', async ({ relay, app }) => {
  test.slow();
  const dana = await app('dana');
  await createAccount(dana.page, { relayUrl: relay.url, handle: 'dana' });
  const eve = await cliPerson(relay.url, 'eve');
  const fred = await cliPerson(relay.url, 'fred');
  // strangers to Eve: both are invited, and join by accepting
  const [g] = (await cliOk(eve.profile, ['group', 'create', 'Choir'])) as Array<{ id: string }>;
  await cliOk(eve.profile, ['group', 'add', g.id, '@dana']);
  await cliOk(eve.profile, ['group', 'add', g.id, '@fred']);
  await cliOk(fred.profile, ['group', 'accept', g.id]);
  await goTo(dana.page, 'Requests');
  await dana.page.getByRole('button', { name: 'Accept invitation to Choir' }).click();
  await expect(dana.page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await goTo(dana.page, 'Groups');
  await dana.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Choir' }).click();
  const members = dana.page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(3);
  // not an admin yet: no member controls
  await expect(members.getByRole('button', { name: /^Remove / })).toHaveCount(0);

  const [hits] = (await cliOk(eve.profile, ['directory', 'dana'])) as Array<Array<{ handle: string; address: string }>>;
  await cliOk(eve.profile, ['group', 'admin', g.id, hits.find((h) => h.handle === 'dana')!.address]);
  await goTo(dana.page, 'Chats');
  await goTo(dana.page, 'Groups');
  await dana.page.getByRole('tabpanel', { name: 'My groups' }).getByRole('button', { name: 'Choir' }).click();
  const danaRow = members.getByRole('listitem').filter({ hasText: 'You' });
  await expect(danaRow.getByText('Admin', { exact: true })).toBeVisible();
  // an admin removes members, but not the creator, and does not name admins
  const fredRow = members.getByRole('listitem').filter({ hasText: '@fred' });
  // (the creator's row holds only the Copy of their address)
  await expect(
    members
      .getByRole('listitem')
      .filter({ hasText: 'Creator' })
      .getByRole('button', { name: /^(?!Copy )/ }),
  ).toHaveCount(0);
  await expect(members.getByRole('button', { name: /admin/ })).toHaveCount(0);
  await fredRow.getByRole('button', { name: /^Remove / }).click();
  const confirm = dana.page.getByRole('dialog', { name: /^Remove .+\?$/ });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expectAccessible(dana.page, 'Group members as an admin');
});
