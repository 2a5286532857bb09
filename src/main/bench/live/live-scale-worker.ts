/**
 * One process of the live-scale bench's load generator (live-scale-bench.ts), forked with an IPC
 * channel: either receivers (each holds a pull on its own keep-alive connection and acks what it
 * is woken with) or the sender (posts single envelopes to them at a steady rate). Every time is `process.hrtime` in milliseconds:
 * CLOCK_MONOTONIC on Linux, one clock for every process of the machine (the parent checks that
 * each worker's reading falls between its own two readings around the question).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { x25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { RawHttpConnection } from '../http/raw-http-connection.js';

/** Milliseconds on the machine-wide monotonic clock. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface Receiver {
  address: string;
  deviceKey: string;
  /** the relay (node) this receiver signed in at and pulls from */
  base: string;
}

export type ToWorker =
  | { type: 'clock' }
  | { type: 'cpu' }
  | { type: 'receivers'; who: Array<Receiver & { apiKey: string }>; wait: number; spreadMs: number }
  | {
      type: 'send';
      bases: string[];
      apiKey: string;
      to: Receiver[];
      rate: number;
      warmup: number;
      seconds: number;
      connections: number;
    }
  | { type: 'report' }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'clock'; at: number }
  | { type: 'cpu'; micros: number; holding: number }
  | { type: 'held' }
  /** `measuredFrom`: the time after the warm-up; a send written before it is the warm-up's */
  | {
      type: 'sent';
      sends: Array<[string, number]>;
      failed: number;
      firstError: string | null;
      seconds: number;
      latestMs: number;
      measuredFrom: number;
    }
  | { type: 'report'; arrivals: Array<[string, number]>; pulls: number; failed: number; firstError: string | null }
  | { type: 'error'; message: string };

const post = (m: FromWorker) => {
  if (process.connected) process.send!(m);
};
const describe = (e: unknown): string =>
  e instanceof Error ? `${e.stack ?? e.message}${e.cause ? `; cause: ${describe(e.cause)}` : ''}` : String(e);
// the bench has ended (or died): so does this process
process.on('disconnect', () => process.exit(0));
let stopped = false;
const connections: RawHttpConnection[] = [];
const arrivals = new Map<string, number>();
let pulls = 0;
/** pulls written and not yet answered */
let holding = 0;
let failed = 0;
let firstError: string | null = null;

function noteError(e: unknown): void {
  failed++;
  firstError ??= e instanceof Error ? e.message : String(e);
}

async function openAt(base: string): Promise<{ conn: RawHttpConnection; host: string }> {
  const url = new URL(base);
  const conn = new RawHttpConnection(url.hostname, Number(url.port));
  await conn.open();
  connections.push(conn);
  return { conn, host: url.host };
}

/**
 * One online receiver: holds a pull, acks what it is woken with, holds again, until stopped. A
 * connection that fails (counted) is opened again a second later, as a client reconnects: what
 * was sent meanwhile stays queued and comes with the next pull.
 */
async function hold(base: string, apiKey: string, wait: number): Promise<void> {
  while (!stopped) {
    try {
      await holdOn(await openAt(base), apiKey, wait);
    } catch (e) {
      if (stopped) return;
      noteError(e);
      await sleep(1000);
    }
  }
}

async function holdOn(
  { conn, host }: { conn: RawHttpConnection; host: string },
  apiKey: string,
  wait: number,
): Promise<void> {
  const auth = { authorization: `Bearer ${apiKey}` };
  const pull = RawHttpConnection.request(host, 'GET', `/api/v1/envelopes?wait=${wait}`, auth);
  try {
    while (!stopped) {
      holding++;
      const answer = await conn.send(pull).finally(() => holding--);
      const at = monotonicMs();
      pulls++;
      if (answer.status !== 200) {
        noteError(new Error(`a held pull answered ${answer.status}: ${answer.body.toString('utf8', 0, 200)}`));
        await sleep(1000);
        continue;
      }
      // {"envelopes":[]} when the wait ran out
      if (answer.body.length <= 20) continue;
      const { envelopes } = JSON.parse(answer.body.toString('utf8')) as { envelopes: Array<{ id: string }> };
      const ids = envelopes.map((e) => e.id);
      for (const id of ids) if (!arrivals.has(id)) arrivals.set(id, at);
      const acked = await conn.send(
        RawHttpConnection.request(host, 'POST', '/api/v1/envelopes/ack', auth, JSON.stringify({ ids })),
      );
      if (acked.status !== 200) noteError(new Error(`an ack answered ${acked.status}`));
    }
  } finally {
    conn.close();
  }
}

/** Brings the receivers online, their starts spread over `spreadMs` as clients coming online are (and so their re-holds). */
async function receivers(m: Extract<ToWorker, { type: 'receivers' }>): Promise<void> {
  const started = monotonicMs();
  for (let i = 0; i < m.who.length; i++) {
    const lag = started + (i * m.spreadMs) / m.who.length - monotonicMs();
    if (lag > 0) await sleep(lag);
    const r = m.who[i];
    void hold(r.base, r.apiKey, m.wait);
  }
  post({ type: 'held' });
}

/** Sealed-looking envelopes (random bytes; a few real X25519 keys reused: the relay only checks their form). */
function envelopeBody(to: Receiver, keys: string[], i: number): string {
  return JSON.stringify({
    toAddress: to.address,
    recipientDeviceKey: to.deviceKey,
    ciphertext: randomBytes(180 + (i % 240)).toString('base64'),
    ephemeralPublicKey: keys[i % keys.length],
    nonce: randomBytes(12).toString('base64'),
  });
}

async function send(m: Extract<ToWorker, { type: 'send' }>): Promise<void> {
  const keys = Array.from({ length: 64 }, () => bytesToHex(x25519.getPublicKey(x25519.utils.randomSecretKey())));
  const total = Math.round(m.rate * (m.warmup + m.seconds));
  const bodies: Array<{ base: string; body: string }> = [];
  // to the receivers in turn, each send through any node (on a cluster: often not the receiver's)
  for (let i = 0; i < total; i++) {
    const to = m.to[i % m.to.length];
    bodies.push({ base: m.bases[Math.floor(Math.random() * m.bases.length)], body: envelopeBody(to, keys, i) });
  }
  const free = new Map<string, Array<{ conn: RawHttpConnection; host: string }>>();
  for (const base of m.bases)
    free.set(base, await Promise.all(Array.from({ length: m.connections }, () => openAt(base))));
  const sends: Array<[string, number]> = [];
  const inFlight: Promise<void>[] = [];
  let latest = 0;
  const start = monotonicMs();
  let i = 0;
  while (i < total) {
    const now = monotonicMs();
    const due = Math.min(total, Math.floor(((now - start) * m.rate) / 1000) + 1);
    for (; i < due; i++) {
      const { base, body } = bodies[i];
      const pool = free.get(base)!;
      // the connection free the longest first, so none idles past the relay's keep-alive timeout
      const c = pool.shift();
      if (!c) break;
      const wrote = monotonicMs();
      latest = Math.max(latest, wrote - (start + (i * 1000) / m.rate));
      inFlight.push(
        c.conn
          .send(
            RawHttpConnection.request(
              c.host,
              'POST',
              '/api/v1/envelopes',
              { authorization: `Bearer ${m.apiKey}` },
              body,
            ),
          )
          .then((a) => {
            pool.push(c);
            if (a.status !== 200) throw new Error(`a send answered ${a.status}: ${a.body.toString('utf8', 0, 200)}`);
            const r = JSON.parse(a.body.toString('utf8')) as { routed: string; envelope?: { id: string } };
            if (r.routed !== 'inbox' || !r.envelope) throw new Error(`a send was routed ${r.routed}, not inbox`);
            sends.push([r.envelope.id, wrote]);
          })
          .catch((e: unknown) => {
            noteError(e);
            // a connection the relay reset is replaced, as a client reconnects; the send is not retried
            if (!c.conn.isOpen) return openAt(base).then((fresh) => void pool.push(fresh), noteError);
          }),
      );
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  post({
    type: 'sent',
    sends,
    failed,
    firstError,
    seconds: (monotonicMs() - start) / 1000,
    latestMs: latest,
    measuredFrom: start + m.warmup * 1000,
  });
}

process.on('message', (m: ToWorker) => {
  const run = async () => {
    switch (m.type) {
      case 'clock':
        return post({ type: 'clock', at: monotonicMs() });
      case 'cpu': {
        const u = process.cpuUsage();
        return post({ type: 'cpu', micros: u.user + u.system, holding });
      }
      case 'receivers':
        return receivers(m);
      case 'send':
        return send(m);
      case 'report':
        return post({ type: 'report', arrivals: [...arrivals], pulls, failed, firstError });
      case 'stop':
        stopped = true;
        for (const c of connections) c.close();
        process.disconnect();
        return;
    }
  };
  run().catch((e: unknown) => post({ type: 'error', message: describe(e) }));
});
