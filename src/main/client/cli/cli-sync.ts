/** The client CLI's `sync` (cli.ts): pull until empty, or follow, printing each message once. */
import type { Messenger } from '../core/messenger.js';
import type { AppliedIncoming } from '../store/local-store.js';
import { receiveHistory } from './cli-history.js';
import { changeLine, shownText } from './cli-message-changes.js';
import { printJson } from './cli-support.js';

/**
 * Pulls until the inbox is empty. Lines are printed after the local commit and before the
 * ack, and each is marked printed right after it is written, so a crash at any point neither
 * loses a message nor prints one twice (barring a crash inside that one write-and-mark).
 */
export async function sync(m: Messenger, json: boolean, follow: boolean): Promise<void> {
  // A message with files is printed once they are saved (or refused), so its line names where they are.
  m.autoFetchFiles = false;
  const print = (): void => {
    for (const msg of m.store.unshownMessages()) {
      if (m.attachments.hasPending(msg.id)) continue;
      const groupId = msg.conversationId.startsWith('group:') ? msg.conversationId.slice(6) : null;
      const files = m.attachments.filesOf(msg.id).map((f) => ({
        name: f.name,
        mime: f.mime,
        size: f.size,
        path: f.path,
        ...(f.state === 'refused' ? { error: f.error } : {}),
      }));
      if (json) {
        printJson({
          id: msg.id,
          from: msg.from,
          groupId,
          routed: msg.routed,
          kind: msg.kind,
          text: msg.text,
          sentAt: msg.sentAt,
          via: msg.via,
          botName: msg.botName,
          ...(msg.expiresIn !== null ? { expiresIn: msg.expiresIn } : {}),
          ...(msg.timerSeconds !== null ? { timer: msg.timerSeconds } : {}),
          ...(msg.editedAt ? { editedAt: msg.editedAt } : {}),
          ...(msg.deleted ? { deleted: true } : {}),
          ...(files.length > 0 ? { files } : {}),
        });
      } else {
        const attached = files
          .map((f) => ` [${f.name}, ${f.size} bytes${f.path ? ` at ${f.path}` : `: ${f.error ?? 'not fetched'}`}]`)
          .join('');
        process.stdout.write(
          `${msg.sentAt} ${msg.from}${groupId ? ` in ${groupId}` : ''}${msg.routed === 'request' ? ' (request)' : ''}: ${shownText(msg)}${attached}\n`,
        );
      }
      m.store.markShown(msg.seq);
    }
  };
  const printChanged = (applied: AppliedIncoming): void => {
    for (const msg of applied.changed) {
      if (json) printJson(changeLine(msg));
      else process.stdout.write(`${msg.id} ${msg.deleted ? 'deleted' : `edited: ${msg.text}`}\n`);
    }
  };
  const fetchThenPrint = async (): Promise<void> => {
    await m.attachments.fetchPending();
    print();
  };
  // lines a previous run committed but did not get to print
  print();
  m.committedHook = (applied: AppliedIncoming) => {
    print();
    printChanged(applied);
  };
  const off = m.on('message.rejected', (r) =>
    process.stderr.write(
      `${JSON.stringify({ rejected: r.envelopeId, claimedSender: r.claimedSender, reason: r.reason })}\n`,
    ),
  );
  if (follow) {
    // files are fetched as each message arrives
    const offFiles = m.on(
      'message.new',
      () =>
        void fetchThenPrint().catch((e: unknown) =>
          process.stderr.write(`${JSON.stringify({ files: 'not fetched', error: (e as Error).message })}\n`),
        ),
    );
    // history sent from another device of the wallet is imported as it arrives, one after another,
    // its outcome printed as a line like `sync` prints it
    let importing: Promise<unknown> = Promise.resolve();
    const importHistory = () => {
      if (!m.history.hasPending()) return;
      importing = importing
        .then(() => receiveHistory(m))
        .catch((e: unknown) =>
          process.stderr.write(`${JSON.stringify({ history: 'not imported', error: (e as Error).message })}\n`),
        );
    };
    const hooked = m.committedHook;
    m.committedHook = async (applied: AppliedIncoming) => {
      await hooked?.(applied);
      importHistory();
    };
    importHistory();
    // the background loop holds a pull open; the profile closes (cancelling it) in main's finally
    const stopped = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    // the loop's timers and sockets are unref'd (they must not hold a closing app open): this holds the process
    const alive = setInterval(() => undefined, 1 << 30);
    m.follow();
    process.stderr.write(
      `${JSON.stringify({ following: true, note: 'each message is printed as it arrives; Ctrl-C ends' })}\n`,
    );
    const signal = await stopped;
    await importing;
    clearInterval(alive);
    off();
    offFiles();
    process.stderr.write(`${JSON.stringify({ following: false, signal })}\n`);
    return;
  }
  const res = await m.syncPass().finally(off);
  // then the files of what it stored (and of earlier runs' messages still waiting for theirs)
  await fetchThenPrint();
  await receiveHistory(m);
  if (res.deferred > 0)
    process.stderr.write(
      `${JSON.stringify({ deferred: res.deferred, note: 'left on the relay for the next sync' })}\n`,
    );
}
