/**
 * A profile database with a bit of everything a backup carries (contacts, a group, direct and
 * group messages, an edit, a delete, a timer, a request, verified marks and notices, settings,
 * kept files), made through the store's own methods, and a row-by-row dump to compare two.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { keptFilesIn } from '../attachments/attachment-crypto.js';
import type { ArchiveFiles } from '../backup/backup-archive.js';
import { ARCHIVE_TABLES, type ArchiveRow, type ArchiveTable } from '../backup/backup-store.js';
import type { IncomingMessage, LocalStore } from '../store/local-store.js';

export const ME = '0x' + 'a1'.repeat(20);
export const BOB = '0x' + 'b2'.repeat(20);
export const CAROL = '0x' + 'c3'.repeat(20);
const GROUP = 'grp_backup_fixture';

/** An ArchiveFiles over a folder and a key, as Attachments.archiveFiles gives. */
export function folderFiles(dir: string, key: Buffer): ArchiveFiles {
  mkdirSync(dir, { recursive: true });
  return keptFilesIn(dir, key);
}

function incoming(n: number, over: Partial<IncomingMessage> = {}): IncomingMessage {
  return {
    id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
    envelopeId: `env-${n}`,
    conversationId: `direct:${BOB}`,
    conversationKind: 'direct',
    peer: BOB,
    author: BOB,
    fromMe: false,
    kind: 'text',
    text: `message ${n}: héllo ✓ ${'x'.repeat(n % 7)}`,
    sentAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    receivedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000 + 500).toISOString(),
    routed: 'inbox',
    via: null,
    botName: null,
    isRequest: false,
    ...over,
  };
}

/** Fills `store`; `messages` plain messages from Bob besides the special ones. Returns the kept files' plaintexts by path. */
export async function fillProfile(store: LocalStore, files: ArchiveFiles, messages = 40): Promise<Map<string, Buffer>> {
  const now = Date.UTC(2026, 0, 2);
  store.setSetting('preferences', JSON.stringify({ theme: 'dark', enterSends: false }));
  store.setSetting('stake.rpc:1', 'http://127.0.0.1:8545');
  store.setSetting('filesKey', 'sealed-device-secret');
  store.setSetting('apiKey:http://127.0.0.1:1', 'sealed-api-key');
  store.setContactState(BOB, 'allowed', now);
  store.setContactHandle(BOB, 'bob', true, now);
  store.upsertGroup(
    {
      id: GROUP,
      name: 'Backup fans',
      isPublic: false,
      verified: false,
      hasPassword: false,
      avatar: null,
      memberCount: 2,
      createdAt: '2026-01-01T00:00:00.000Z',
      creator: ME,
      members: [ME, BOB],
      isMember: true,
    },
    now,
  );
  const batch: IncomingMessage[] = [];
  for (let n = 1; n <= messages; n++) batch.push(incoming(n));
  batch.push(
    incoming(100_001, {
      conversationId: `group:${GROUP}`,
      conversationKind: 'group',
      peer: GROUP,
      text: 'in the group',
    }),
  );
  batch.push(
    incoming(100_002, {
      author: CAROL,
      peer: CAROL,
      conversationId: `direct:${CAROL}`,
      kind: 'request',
      text: 'hi, may I write?',
      isRequest: true,
      routed: 'request',
    }),
  );
  const photo = randomBytes(150_000);
  const note = Buffer.from('a small note\n');
  const ref = (name: string, data: Buffer) => ({
    blob: `blob-${name}`,
    key: randomBytes(32).toString('base64'),
    nonce: randomBytes(12).toString('base64'),
    name,
    mime: 'application/octet-stream',
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
  });
  batch.push(incoming(100_003, { text: '', files: [ref('photo.bin', photo), ref('note.txt', note)] }));
  store.applyIncoming(batch, ['env-ack'], now);
  const withFiles = batch.at(-1)!.id;
  const kept = new Map<string, Buffer>();
  for (const [index, data] of [photo, note].entries()) {
    const out = files.create(withFiles, index);
    await out.write(data.subarray(0, 70_000));
    await out.write(data.subarray(70_000));
    await out.end();
    store.attachments.markSaved(withFiles, index, out.path);
    kept.set(out.path, data);
  }
  const mine = store.insertOutgoing({
    id: '00000000-0000-4000-8000-00000000a001',
    conversationId: `direct:${BOB}`,
    kind: 'direct',
    peer: BOB,
    author: ME,
    messageKind: 'text',
    text: 'my reply',
    sentAt: '2026-01-01T12:00:00.000Z',
    payload: '{"v":1}',
    asRequest: false,
    nowMs: now,
    expiresIn: 3600,
  });
  store.markSent(mine.id, {
    routed: 'inbox',
    stakeRequired: null,
    stakeCurrency: null,
    via: null,
    deliveries: [{ device: 'd1', routed: 'inbox' }],
  });
  store.insertOutgoing({
    id: '00000000-0000-4000-8000-00000000a002',
    conversationId: `direct:${BOB}`,
    kind: 'direct',
    peer: BOB,
    author: ME,
    messageKind: 'text',
    text: 'still sending',
    sentAt: '2026-01-01T12:01:00.000Z',
    payload: '{"v":2}',
    asRequest: false,
    nowMs: now,
  });
  store.trust.recordDevices(BOB, ['dev-b1'], [], now);
  store.trust.setVerified(BOB, ['dev-b1'], now);
  store.trust.recordDevices(
    BOB,
    ['dev-b1', 'dev-b2'],
    [{ change: 'added', deviceKey: 'dev-b2', at: '2026-01-01T13:00:00.000Z' }],
    now + 1,
  );
  store.markRead(`direct:${BOB}`);
  store.setMuted(`group:${GROUP}`, true);
  return kept;
}

/** Every row of every archived table, in key order (attachment paths aside: they name the profile's folder). */
export function dump(
  store: LocalStore,
  opts: { portableSettingsOnly?: boolean } = {},
): Record<ArchiveTable, ArchiveRow[]> {
  const out = {} as Record<ArchiveTable, ArchiveRow[]>;
  for (const { name } of ARCHIVE_TABLES) {
    const rows: ArchiveRow[] = [];
    for (let after: ArchiveRow[string] = null, more = true; more;) {
      const page = store.backup.page(name, after, 1000);
      rows.push(...page.rows);
      after = page.next;
      more = page.next !== null;
    }
    out[name] = rows.map((r) => (name === 'attachments' ? { ...r, path: r.path === null ? null : 'kept' } : r));
  }
  if (opts.portableSettingsOnly)
    out.profile = out.profile.filter((r) => r.key === 'preferences' || String(r.key).startsWith('stake.rpc:'));
  return out;
}
