import type { Page } from '@playwright/test';
import { parseEther, type Hex } from 'viem';
import { expectAccessible } from './axe.js';
import { acceptRequest, createAccount, goTo, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';
import { cliOk, tempDir } from './harness.js';

/** This app's wallet address, as Settings shows it. */
async function addressOf(page: Page): Promise<Hex> {
  await goTo(page, 'Settings');
  const address = await page.locator('.inline-code[data-copy-source]').first().getAttribute('data-copy-source');
  expect(address).toMatch(/^0x[0-9a-f]{40}$/);
  return address as Hex;
}

test("stake-gate: the sender pays the stake and sends; accepted, it comes back; a spammer's stake is kept", async ({
  chain,
  stakeRelay: relay,
  app,
}) => {
  test.setTimeout(480_000);
  const kate = await app('kate');
  const leo = await app('leo');
  await createAccount(kate.page, { relayUrl: relay.url, handle: 'kate' });
  await createAccount(leo.page, { relayUrl: relay.url, handle: 'leo' });
  for (const page of [kate.page, leo.page])
    await chain.test.setBalance({ address: await addressOf(page), value: parseEther('1') });

  await goTo(kate.page, 'Settings');
  await kate.page.getByRole('radio', { name: 'Ask for a stake' }).check();
  await kate.page.getByLabel('Stake amount').fill('0.05');
  await kate.page.getByRole('button', { name: 'Save policy' }).click();
  await expect(kate.page.getByRole('status').getByText('Inbox policy saved.')).toBeVisible();

  // Leo is asked, in plain words, and pays
  await messageFromDirectory(leo.page, 'kate');
  await send(leo.page, 'Hi Kate!');
  await expect(
    messages(leo.page).getByText('Not delivered: @kate asks for a refundable 0.05 ETH stake from new contacts.'),
  ).toBeVisible();
  const ask = leo.page.getByRole('group', { name: 'Stake asked by @kate' });
  await expect(ask).toContainText(
    "@kate asks people they don't know for a refundable 0.05 ETH stake; it comes back when they accept, or after 7 days if they ignore you.",
  );
  await expect(ask).toContainText('Your balance: 1 ETH');
  await expectAccessible(leo.page, 'stake ask');
  await ask.getByRole('button', { name: 'Pay & send' }).click();
  await expect(
    messages(leo.page).getByText('Sent as a contact request: @kate sees it under Requests and can accept you there.'),
  ).toBeVisible({ timeout: 60_000 });
  await expect(ask).toHaveCount(0);

  // Kate sees the stake on the request and accepts: the stake is released to Leo
  await goTo(kate.page, 'Requests');
  const card = kate.page.getByRole('article', { name: 'Request from @leo' });
  // and what each answer does to it, Decline included (it is not kept: it goes back at its deadline)
  await expect(card).toContainText(
    /Staked 0\.05 ETH\. Accept and it goes back to them now; decline and it goes back to them on \w{3} \d{1,2}, \d{4}; mark it as spam and you keep it\./,
    { timeout: 30_000 },
  );
  await expect(card.getByRole('button', { name: 'Decline @leo' })).toHaveAccessibleDescription(
    /decline and it goes back/,
  );
  await expectAccessible(kate.page, 'staked request');
  await acceptRequest(kate.page, 'leo');

  await goTo(leo.page, 'Stakes');
  const sent = leo.page.getByRole('list', { name: 'Sent stakes' });
  await expect(sent).toContainText('Accepted: take it back');
  // Kate by her handle, her address once (to copy), the balance in six decimals at most
  const stakeCard = sent.getByRole('article', { name: 'Stake to @kate' });
  await expect(stakeCard).toContainText('0.05 ETH to @kate');
  await expect(stakeCard.getByRole('button', { name: 'Copy @kate’s address' })).toBeVisible();
  await expect(stakeCard).not.toContainText('0x');
  const balance = leo.page.getByRole('status').filter({ hasText: 'Your balance' });
  await expect(balance).toHaveText(/^Your balance on chain 31337: 0\.9\d{0,5} ETH$/);
  await expect(balance.locator('.amount')).toHaveAttribute('title', /^0\.9\d{7,} ETH$/);
  await expectAccessible(leo.page, 'stakes screen');
  await leo.page.screenshot({ path: '/tmp/ux-shots/stakes-screen-light.png' });
  await sent.getByRole('button', { name: 'Refund' }).click();
  await expect(leo.page.getByRole('status').getByText('0.05 ETH is back in your wallet.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(sent).toContainText('Returned (accepted)');

  // A stranger pays from the command line; Kate marks it spam (after confirming) and keeps the stake
  const mia = tempDir('cli-mia');
  const miaKey = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
  await cliOk(mia, ['init', '--relay', relay.url, '--handle', 'mia', '--private-key-env', 'MIA_KEY'], {
    MIA_KEY: miaKey,
  });
  const [paid] = await cliOk(mia, ['send', '@kate', 'cheap watches', '--stake']);
  expect(paid).toMatchObject({ state: 'sent', routed: 'request' });
  await goTo(kate.page, 'Requests');
  const spam = kate.page.getByRole('article', { name: 'Request from @mia' });
  await expect(spam).toContainText('Staked 0.05 ETH', { timeout: 30_000 });
  await spam.getByRole('button', { name: 'Mark @mia as spam' }).click();
  const confirm = kate.page.getByRole('dialog', { name: 'Mark as spam?' });
  await expect(confirm).toContainText('You keep the 0.05 ETH stake and @mia is blocked.');
  await confirm.getByRole('button', { name: 'Keep the stake and block' }).click();
  await expect(spam).toHaveCount(0, { timeout: 30_000 });
  await goTo(kate.page, 'Stakes');
  await expect(kate.page.getByRole('list', { name: 'Received stakes' })).toContainText('Kept (marked spam)');
  await expect(kate.page.getByRole('status').filter({ hasText: 'Your balance' })).toContainText(
    /Your balance on chain 31337: 1\.04\d* ETH/,
  );
});
