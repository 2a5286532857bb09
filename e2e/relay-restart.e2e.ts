import { acceptRequest, createAccount, messageFromDirectory, messages, send } from './flows.js';
import { expect, test } from './fixtures.js';

test('a relay restarted mid-conversation loses nothing', async ({ relay, app }) => {
  const mia = await app('mia');
  const ned = await app('ned');
  await createAccount(mia.page, { relayUrl: relay.url, handle: 'mia' });
  await createAccount(ned.page, { relayUrl: relay.url, handle: 'ned' });
  await messageFromDirectory(mia.page, 'ned');
  await send(mia.page, 'before the restart');
  await acceptRequest(ned.page, 'mia');
  await expect(messages(ned.page).getByText('before the restart')).toBeVisible();

  // Down: what Mia sends waits in her outbox.
  await relay.stop();
  await send(mia.page, 'while the relay was down');
  await expect(messages(mia.page).getByRole('img', { name: 'Sending' })).toBeVisible();
  // Up again on the same port and data: it goes out and arrives, and the earlier messages are still there.
  await relay.start();
  await expect(messages(ned.page).getByText('while the relay was down')).toBeVisible({ timeout: 60_000 });
  await send(ned.page, 'got it after the restart');
  await expect(messages(mia.page).getByText('got it after the restart')).toBeVisible({ timeout: 30_000 });
  await expect(messages(ned.page).getByText('before the restart')).toBeVisible();
  await expect(messages(mia.page).getByRole('img', { name: 'Sending' })).toHaveCount(0);
});
