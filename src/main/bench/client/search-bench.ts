/**
 * The search section of `npm run bench`: local full-text search (FTS5, local-store-search.ts)
 * over a profile holding 100,000 messages in 50 conversations, written the way a sync commits
 * them (LocalStore.applyIncoming, so the triggers build the index as they would).
 *
 * Message texts draw words from a Zipf-distributed vocabulary (s = 1): 100 common English
 * words at the head, then made-up words to 5,000, 3 to 24 words a message; so "the" is in most
 * messages, as in real chat, and a rare word in a handful. Queries are a mix of what people
 * type: a word of the common head (10%), a mid-frequency word (40%), a rare word (20%), two
 * words (20%), a 3-letter prefix being typed (10%); every fifth within one conversation. Each
 * search asks for 50 hits, as the app does, snippets included.
 *
 * Figures: search_p50_ms, search_p95_ms (target ≤ 30 ms), the p95 of the common words
 * alone (the slowest kind: every match is read to order them by time), and the main thread's
 * event-loop delay, max and p99, while the mix runs again one search per turn (target ≤ 50 ms).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationId } from '../../../shared/domain.js';
import { LocalStore, type IncomingMessage } from '../../client/store/local-store.js';
import { watchStalls } from '../loop-stalls.js';
import { percentile } from '../report.js';

export interface SearchBenchOptions {
  quick?: boolean;
  log?: (line: string) => void;
  messages?: number;
}

const CONVERSATIONS = 50;
const VOCABULARY = 5_000;
const HITS = 50;
const COMMON = (
  'the to and a you i is it of in for that on we at be this with are can have so not but do just my me if be will was all ' +
  'what your get out about there like they now up time when good know how see one no yes ok from our think today tomorrow ' +
  'go going back new work day here want call later then need sure thanks well right take make still let meeting lunch ' +
  'send home week night morning great also'
).split(' ');

/** A deterministic generator, so every run searches the same corpus. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(rnd: () => number): string[] {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ne',
    'ru',
    'sa',
    'ti',
    'vo',
    'be',
    'da',
    'fi',
    'go',
    'hu',
    'je',
    'pa',
    'ze',
    'ro',
    'mu',
    'chi',
    'sto',
  ];
  const words = new Set(COMMON);
  while (words.size < VOCABULARY) {
    const n = 2 + Math.floor(rnd() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rnd() * syllables.length)]).join(''));
  }
  return [...words];
}

/** Picks ranks with probability ∝ 1/rank. */
function zipf(size: number, rnd: () => number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 1; r <= size; r++) cumulative.push((sum += 1 / r));
  return () => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export async function benchSearch(opts: SearchBenchOptions = {}): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const total = opts.messages ?? 100_000;
  const searches = opts.quick ? 200 : 1_000;
  const rnd = random(12);
  const words = vocabulary(rnd);
  const rank = zipf(words.length, rnd);
  const dir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  const store = LocalStore.open(join(dir, 'client.db'));
  try {
    const peers = Array.from({ length: CONVERSATIONS }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));
    const start = Date.UTC(2025, 0, 1);
    const t0 = performance.now();
    for (let i = 0; i < total; i += 1_000) {
      const batch: IncomingMessage[] = [];
      for (let j = i; j < Math.min(total, i + 1_000); j++) {
        const peer = peers[Math.floor(rnd() * CONVERSATIONS)];
        const text = Array.from({ length: 3 + Math.floor(rnd() * 22) }, () => words[rank()]).join(' ');
        const at = new Date(start + j * 60_000).toISOString();
        batch.push({
          id: globalThis.crypto.randomUUID(),
          envelopeId: globalThis.crypto.randomUUID(),
          conversationId: `direct:${peer}`,
          conversationKind: 'direct',
          peer,
          author: peer,
          fromMe: false,
          kind: 'text',
          text,
          sentAt: at,
          receivedAt: at,
          routed: 'inbox',
          via: null,
          botName: null,
          isRequest: false,
        });
      }
      store.applyIncoming(batch, [], Date.now());
    }
    log(`search bench: ${total} messages stored and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const pick = (from: number, to: number) => words[from + Math.floor(rnd() * (to - from))];
    const query = (): { q: string; common: boolean } => {
      const x = rnd();
      if (x < 0.1) return { q: pick(0, 20), common: true };
      if (x < 0.5) return { q: pick(50, 1_000), common: false };
      if (x < 0.7) return { q: pick(1_000, VOCABULARY), common: false };
      if (x < 0.9) return { q: `${pick(20, 500)} ${pick(20, 2_000)}`, common: false };
      return { q: pick(100, 2_000).slice(0, 3), common: false };
    };
    const run = (n: number) => {
      const all: number[] = [];
      const common: number[] = [];
      let hits = 0;
      for (let i = 0; i < n; i++) {
        const { q, common: isCommon } = query();
        const conversationId = i % 5 === 4 ? (`direct:${peers[i % CONVERSATIONS]}` as ConversationId) : null;
        const t = performance.now();
        hits += store.search.search(q, { conversationId, limit: HITS }).length;
        const ms = performance.now() - t;
        all.push(ms);
        if (isCommon) common.push(ms);
      }
      return { all: all.sort((a, b) => a - b), common: common.sort((a, b) => a - b), hits };
    };
    run(Math.ceil(searches / 10)); // warm the page cache and the statements
    const { all, common, hits } = run(searches);
    log(`search bench: ${searches} searches, ${(hits / searches).toFixed(1)} hits each on average`);
    // the same mix again, each search its own turn of the event loop as an IPC call is: how long
    // one holds the main thread (search stays there: each is one short read)
    const { stalls } = await watchStalls(async () => {
      for (let i = 0; i < searches; i++) {
        const { q } = query();
        store.search.search(q, {
          conversationId: i % 5 === 4 ? (`direct:${peers[i % CONVERSATIONS]}` as ConversationId) : null,
          limit: HITS,
        });
        await new Promise((r) => setImmediate(r));
      }
    });
    return {
      search_p50_ms: percentile(all, 0.5),
      search_p95_ms: percentile(all, 0.95),
      search_common_word_p95_ms: percentile(common, 0.95),
      search_loop_max_ms: Math.max(stalls.max_ms, stalls.probe_max_ms),
      search_loop_p99_ms: Math.max(stalls.p99_ms, stalls.probe_p99_ms),
      search_messages: total,
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
