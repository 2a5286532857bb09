/**
 * `tsx e2e/send-history.ts <profile> <@handle> <count> <prefix>`: the headless client sends
 * `count` numbered messages (`<prefix> 001`, …) to @handle from one process, so a long
 * conversation takes one start-up instead of one per message. Prints `{ sent }` when the relay
 * has taken them all; the profile is one `npm run client -- init` made. Each message fetches
 * the recipient's devices, so the relay should run with `--rate-limit 0`, and this client does
 * not pace itself to the usual 120 requests a minute.
 */
import { Messenger } from '../src/main/client/core/messenger.js';
import type { ConversationId } from '../src/shared/domain.js';

const [profileDir, to, countArg, prefix] = process.argv.slice(2);
const count = Number(countArg);
const width = String(count).length;

const m = await Messenger.open({ profileDir, shell: 'web', autoSync: false, requestsPerMinute: 0 });
try {
  await m.wallet.unlock({ passphrase: process.env.RELAY_PASSPHRASE ?? '' });
  const conversationId = `direct:${await m.contacts.resolveRecipient(to)}` as ConversationId;
  for (let i = 1; i <= count; i++) {
    m.messages.send({ conversationId, text: `${prefix} ${String(i).padStart(width, '0')}` });
    // a millisecond apart, so that sent times (and so the order shown and the conversation's
    // preview) follow the numbering whatever order the outbox's batches reach the relay in
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  // The outbox sends in batches; keep flushing until a round finds nothing left.
  for (let round = 0; round < 50 && (await m.messages.flushOutbox(true)).length > 0; round++);
  const mine = m.messages
    .listMessages({ conversationId, limit: count + 10 })
    .filter((x) => x.fromMe && x.text.startsWith(`${prefix} `));
  const unsent = mine.filter((x) => x.state !== 'sent');
  if (mine.length !== count || unsent.length > 0)
    throw new Error(`sent ${mine.length - unsent.length} of ${count}: ${unsent[0]?.error ?? 'some are missing'}`);
  process.stdout.write(JSON.stringify({ sent: count }) + '\n');
} finally {
  await m.close();
}
