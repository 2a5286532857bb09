/**
 * The dbcrypt section of `npm run bench`: what encrypting the local database (whole file,
 * sqlite/database-cipher.ts) costs beside the clear one, on 10,000 messages in 10 conversations.
 *
 * For each of clear and encrypted:
 *  - insert: the messages stored the way a sync commits them (applyIncoming, batches of 100),
 *    in ms per 1,000; and 200 single sends (insertOutgoing, one fsync'd commit each), p50;
 *  - page load: a fresh connection (open, key, schema check) and the newest page of 50, p50 of
 *    20; then paging back through a 1,000-message conversation 50 at a time, p95.
 * And, for the alternative weighed in docs/benchmarks.md, dbcrypt (sealing each message body on its own), the cost of
 * one AES-256-GCM seal and open of a message text, in µs: what every insert and every message
 * of a page would add, before search (which that design loses) is counted.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationId } from '../../../shared/domain.js';
import { LocalStore, type IncomingMessage } from '../../client/store/local-store.js';
import { percentile } from '../report.js';

export interface DbcryptBenchOptions {
  quick?: boolean;
  log?: (line: string) => void;
}

const CONVERSATIONS = 10;
const PAGE = 50;
const PEERS = Array.from({ length: CONVERSATIONS }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));
const WORDS =
  'the meeting moved to thursday so bring the draft and we can go over the numbers before lunch with everyone'.split(
    ' ',
  );

function text(i: number): string {
  return Array.from({ length: 6 + (i % 18) }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]).join(' ');
}

function incoming(i: number): IncomingMessage {
  const peer = PEERS[i % CONVERSATIONS];
  const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  return {
    id: globalThis.crypto.randomUUID(),
    envelopeId: globalThis.crypto.randomUUID(),
    conversationId: `direct:${peer}`,
    conversationKind: 'direct',
    peer,
    author: peer,
    fromMe: false,
    kind: 'text',
    text: text(i),
    sentAt: at,
    receivedAt: at,
    routed: 'inbox',
    via: null,
    botName: null,
    isRequest: false,
  };
}

function measure(
  label: string,
  total: number,
  sends: number,
  key: Buffer | undefined,
  log: (l: string) => void,
): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), `dbcrypt-bench-${label}-`));
  const file = join(dir, 'client.db');
  try {
    const store = LocalStore.open(file, { key });
    const t0 = performance.now();
    for (let i = 0; i < total; i += 100)
      store.applyIncoming(
        Array.from({ length: Math.min(100, total - i) }, (_, j) => incoming(i + j)),
        [],
        Date.now(),
      );
    const bulkMs = performance.now() - t0;
    const sendTimes: number[] = [];
    for (let i = 0; i < sends; i++) {
      const peer = PEERS[i % CONVERSATIONS];
      const t = performance.now();
      store.insertOutgoing({
        id: globalThis.crypto.randomUUID(),
        conversationId: `direct:${peer}`,
        kind: 'direct',
        peer,
        author: PEERS[0],
        messageKind: 'text',
        text: text(i),
        sentAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
        payload: '{}',
        asRequest: false,
        nowMs: Date.now(),
      });
      sendTimes.push(performance.now() - t);
    }
    store.close();

    const conv = `direct:${PEERS[1]}` as ConversationId;
    const firstPage: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const s = LocalStore.open(file, { key });
      s.listMessages(conv, null, PAGE);
      firstPage.push(performance.now() - t);
      s.close();
    }
    const s = LocalStore.open(file, { key });
    const paging: number[] = [];
    let before: string | null = null;
    for (;;) {
      const t = performance.now();
      const page = s.listMessages(conv, before, PAGE);
      paging.push(performance.now() - t);
      if (page.length < PAGE) break;
      before = page[0].id;
    }
    s.close();
    log(
      `dbcrypt bench (${label}): ${total} messages in ${(bulkMs / 1000).toFixed(2)} s, ${paging.length} pages read back`,
    );
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    return {
      insert_per_1000_ms: (bulkMs / total) * 1000,
      send_p50_ms: percentile(sorted(sendTimes), 0.5),
      open_and_first_page_p50_ms: percentile(sorted(firstPage), 0.5),
      page_p95_ms: percentile(sorted(paging), 0.95),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One AES-256-GCM seal and open of a message text, as field-level sealing would add per message (µs). */
function fieldSealing(rounds: number): { seal_us: number; open_us: number } {
  const key = randomBytes(32);
  const plain = Buffer.from(text(5));
  let sealed: Buffer[] = [];
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, nonce);
    sealed.push(Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]));
  }
  const t1 = performance.now();
  for (const b of sealed) {
    const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
    d.setAuthTag(b.subarray(b.length - 16));
    Buffer.concat([d.update(b.subarray(12, b.length - 16)), d.final()]);
  }
  const t2 = performance.now();
  sealed = [];
  return { seal_us: ((t1 - t0) / rounds) * 1000, open_us: ((t2 - t1) / rounds) * 1000 };
}

export async function benchDbcrypt(
  opts: DbcryptBenchOptions = {},
): Promise<Record<string, number | Record<string, number>>> {
  const log = opts.log ?? (() => undefined);
  const total = opts.quick ? 2_000 : 10_000;
  const sends = opts.quick ? 50 : 200;
  const clear = measure('clear', total, sends, undefined, log);
  const encrypted = measure('encrypted', total, sends, randomBytes(32), log);
  const field = fieldSealing(opts.quick ? 2_000 : 20_000);
  return {
    clear,
    encrypted,
    insert_encrypted_vs_clear: encrypted.insert_per_1000_ms / clear.insert_per_1000_ms,
    page_encrypted_vs_clear: encrypted.open_and_first_page_p50_ms / clear.open_and_first_page_p50_ms,
    field_sealing: field,
    messages: total,
  };
}
