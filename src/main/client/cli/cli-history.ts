/**
 * The command-line client's side of history on a new device: `history send <deviceKey>` on the
 * device that has the history, and `history receive` (also run by every `sync`) on the new one.
 * Progress goes to stderr as JSON lines (about every tenth of each phase); results to stdout.
 */
import type { HistoryProgress } from '../../../shared/backup/history.js';
import type { Messenger } from '../core/messenger.js';
import { deviceKey } from './cli-args.js';
import { UsageError, printJson } from './cli-support.js';

export async function runHistory(m: Messenger, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'send') {
    const usage = "usage: history send <deviceKey> (the new device's key, from `devices`)";
    if (rest.length !== 1) throw new UsageError(usage);
    const key = deviceKey(rest[0], usage);
    const off = showProgress(m);
    try {
      printJson({ history: 'sent', ...(await m.history.send(key)) });
    } finally {
      off();
    }
    return;
  }
  if (sub === 'receive' && rest.length === 0) {
    await m.syncPass();
    if (!(await receiveHistory(m))) printJson({ history: 'none' });
    return;
  }
  throw new UsageError('usage: history send <deviceKey> | history receive');
}

/** Imports a transfer the last sync kept, printing its outcome; false when there was none. */
export async function receiveHistory(m: Messenger): Promise<boolean> {
  if (!m.history.hasPending()) return false;
  const off = showProgress(m);
  try {
    const outcome = await m.history.importPending();
    if (outcome === null) {
      process.stderr.write(
        `${JSON.stringify({ history: 'waiting', note: 'the relay could not be reached; the next sync tries again' })}\n`,
      );
      return true;
    }
    const { state, ...rest } = outcome;
    printJson({ history: state, ...rest });
    if (outcome.state === 'refused') process.exitCode = 1;
    return true;
  } finally {
    off();
  }
}

function showProgress(m: Messenger): () => void {
  let last: { phase: string; tenth: number } | null = null;
  return m.on('history.progress', (p: HistoryProgress) => {
    const tenth = p.total > 0 ? Math.floor((p.done / p.total) * 10) : 0;
    if (last && last.phase === p.phase && last.tenth === tenth) return;
    last = { phase: p.phase, tenth };
    process.stderr.write(
      `${JSON.stringify({ history: 'progress', direction: p.direction, phase: p.phase, done: p.done, total: p.total })}\n`,
    );
  });
}
