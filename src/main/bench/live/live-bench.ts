/**
 * The live section of `npm run bench`: the built relay as a child on 127.0.0.1 with
 * many held pulls (`GET /api/v1/envelopes?wait=25`) open at once, each on its own keep-alive
 * socket, as clients that are online hold them.
 *
 * - idle request rate: what the held waiters cost the relay while nothing is sent, beside the
 *   same clients polling every 3 s (the client's paced polling before live delivery);
 * - wake latency: a sender posts to the waiters in turn at a steady rate; each figure is from
 *   the sender's 200 to the woken pull's answer, read in this process; the sender's own round
 *   trip in the same loop is the baseline;
 * - online delivery on an idle relay (live-idle-bench.ts): one held pull, one send at a time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBuilt, type Child } from '../../test-support/child-process.js';
import { sealedLikeEnvelope } from '../../test-support/sealed-like.js';
import { callJson, signIn, type SignedIn } from '../../test-support/sign-in.js';
import { KeepAliveClient } from '../http/keep-alive-client.js';
import { benchLiveIdle } from './live-idle-bench.js';
import { figure, percentile, type Figure } from '../report.js';

const SECTION = 'live';

export interface LiveBenchOptions {
  /** 100 waiters and 2-second waits: a smoke test of the harness, not figures to quote */
  quick?: boolean;
  log?: (line: string) => void;
}

interface Plan {
  waiters: number;
  /** the `wait` of every held pull, seconds */
  wait: number;
  /** the idle window; two whole waits, so every waiter answers and re-holds twice in it */
  idleSeconds: number;
  sendsPerSecond: number;
  sends: number;
  /** the polling baseline: interval and window, seconds */
  pollEvery: number;
  pollSeconds: number;
}

const FULL: Plan = {
  waiters: 1000,
  wait: 25,
  idleSeconds: 50,
  sendsPerSecond: 100,
  sends: 3000,
  pollEvery: 3,
  pollSeconds: 9,
};
const QUICK: Plan = {
  waiters: 100,
  wait: 2,
  idleSeconds: 4,
  sendsPerSecond: 100,
  sends: 300,
  pollEvery: 3,
  pollSeconds: 3,
};

/** One online client: holds a pull, acks what it was woken with, holds again, until stopped. */
class HeldWaiter {
  /** requests sent (pulls and acks) */
  requests = 0;
  stopped = false;
  private readonly client: KeepAliveClient;

  constructor(
    base: string,
    readonly who: SignedIn,
    agent: Agent,
    private readonly wait: number,
    private readonly onWoken: (ids: string[], at: number) => void,
  ) {
    this.client = new KeepAliveClient(base, who.apiKey, agent);
  }

  async run(): Promise<void> {
    while (!this.stopped) {
      this.requests++;
      let envelopes: { id: string }[];
      try {
        ({ envelopes } = await this.client.call<{ envelopes: { id: string }[] }>(
          'GET',
          `/api/v1/envelopes?wait=${this.wait}`,
        ));
      } catch (err) {
        if (this.stopped) return;
        throw err;
      }
      if (envelopes.length === 0) continue;
      this.onWoken(
        envelopes.map((e) => e.id),
        performance.now(),
      );
      this.requests++;
      await this.client.call('POST', '/api/v1/envelopes/ack', { ids: envelopes.map((e) => e.id) });
    }
  }
}

export async function benchLive(opts: LiveBenchOptions = {}): Promise<Figure[]> {
  const plan = opts.quick ? QUICK : FULL;
  const log = opts.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'live-bench-'));
  // one socket per held pull, plus the acks that follow a wake. The oldest free socket is used
  // first, so none sits idle past the relay's 5-second keep-alive and is closed under a request.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'fifo' });
  let relay: Child | null = null;
  const figures: Figure[] = [];
  const add = (...args: Parameters<typeof figure>) => figures.push(figure(...args));
  try {
    // first, on its own idle relay: nothing else held or sent
    figures.push(...(await benchLiveIdle({ rounds: opts.quick ? 50 : 500, log })));
    relay = await startBuilt(
      'relay',
      ['--host', '127.0.0.1', '--port', '0', '--data', dataDir, '--rate-limit', '0'],
      /^relay listening on (\S+)/,
    );
    const base = relay.ready;
    const pid = relay.proc.pid!;
    log(`relay ${base} (pid ${pid}); signing in ${plan.waiters} waiters and a sender`);
    const sender = await signIn(base, 'bench sender');
    const people: SignedIn[] = [];
    for (let i = 0; i < plan.waiters; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, plan.waiters - i) }, (_, j) => signIn(base, `bench waiter ${i + j}`)),
      );
      await Promise.all(batch.map((p) => callJson('PUT', `${base}/api/v1/contacts/${sender.address}`, p.apiKey)));
      people.push(...batch);
    }

    const wokenAt = new Map<string, number>();
    const waiters = people.map(
      (p) => new HeldWaiter(base, p, agent, plan.wait, (ids, at) => ids.forEach((id) => wokenAt.set(id, at))),
    );
    const requests = () => waiters.reduce((n, w) => n + w.requests, 0);
    // clients come online at different moments: starts spread over one wait, so that any
    // window sees the same rate (started together, every pull would end in the same second)
    const running = waiters.map(async (w, i) => {
      await sleep((i * plan.wait * 1000) / waiters.length);
      await w.run();
    });
    // a waiter that fails (any non-2xx, a reset) fails the section at once
    let failure: unknown = null;
    for (const r of running) r.catch((err: unknown) => (failure ??= err));
    await sleep(plan.wait * 1000 + 1000);
    if (failure) throw failure;

    // (a) idle: nothing is sent; every waiter answers empty at the end of each wait and holds again
    log(`(a) ${plan.waiters} held pulls idle for ${plan.idleSeconds} s (wait=${plan.wait})`);
    const cpu0 = cpuSeconds(pid);
    const r0 = requests();
    const t0 = performance.now();
    await sleep(plan.idleSeconds * 1000);
    const idleSeconds = (performance.now() - t0) / 1000;
    const idleRate = (requests() - r0) / idleSeconds;
    const idleCpu = (cpuSeconds(pid) - cpu0) / idleSeconds;
    if (failure) throw failure;

    // (b) wake latency: sends at a steady rate to the waiters in turn, each to a pull held for seconds by then
    log(`(b) ${plan.sends} sends at ${plan.sendsPerSecond}/s to ${plan.waiters} held pulls`);
    // enough sockets that no send waits in the client for one: its clock starts at the write
    const sendAgent = new Agent({ keepAlive: true, maxSockets: 128, scheduling: 'fifo' });
    const senderClient = new KeepAliveClient(base, sender.apiKey, sendAgent);
    const sent: { id: string; wrote: number; answered: number }[] = [];
    const inFlight: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; i < plan.sends; i++) {
      const due = start + (i * 1000) / plan.sendsPerSecond;
      const lag = due - performance.now();
      if (lag > 0) await sleep(lag);
      const to = people[i % people.length];
      const wrote = performance.now();
      inFlight.push(
        senderClient
          .call<{ routed: string; envelope?: { id: string } }>(
            'POST',
            '/api/v1/envelopes',
            sealedLikeEnvelope({ address: to.address, deviceKey: to.deviceKey }),
          )
          .then((r) => {
            if (r.routed !== 'inbox' || !r.envelope) throw new Error(`a send was routed ${r.routed}, not inbox`);
            sent.push({ id: r.envelope.id, wrote, answered: performance.now() });
          }),
      );
    }
    await Promise.all(inFlight);
    const sendSeconds = (performance.now() - start) / 1000;
    await sleep(1000);
    sendAgent.destroy();
    if (failure) throw failure;
    const missing = sent.filter((s) => !wokenAt.has(s.id));
    if (missing.length > 0)
      throw new Error(`${missing.length} of ${sent.length} sends woke no held pull within a second`);
    const wake = sent.map((s) => wokenAt.get(s.id)! - s.answered).sort((x, y) => x - y);
    const fromWrite = sent.map((s) => wokenAt.get(s.id)! - s.wrote).sort((x, y) => x - y);
    const roundTrip = sent.map((s) => s.answered - s.wrote).sort((x, y) => x - y);
    const conditions = `${plan.waiters} held pulls, ${sent.length} sends in ${sendSeconds.toFixed(1)} s (${(sent.length / sendSeconds).toFixed(0)}/s) to them in turn`;
    add(SECTION, 'wake.p50', "wake latency p50 (sender's 200 → held pull answered)", percentile(wake, 0.5), 'ms', {
      target: { op: '<=', value: 5 },
      // both follow the same commit, so the woken pull is often read first: then the figure is negative
      detail: `${conditions}; send written → held pull answered p50 ${percentile(fromWrite, 0.5).toFixed(2)} ms`,
    });
    add(SECTION, 'wake.p99', "wake latency p99 (sender's 200 → held pull answered)", percentile(wake, 0.99), 'ms', {
      target: { op: '<=', value: 25 },
      detail: `${conditions}; send written → held pull answered p99 ${percentile(fromWrite, 0.99).toFixed(2)} ms; worst ${wake[wake.length - 1].toFixed(2)} ms`,
    });
    add(SECTION, 'send.p50', "sender's round trip p50, same loop (baseline)", percentile(roundTrip, 0.5), 'ms', {
      detail: conditions,
    });
    add(SECTION, 'send.p99', "sender's round trip p99, same loop (baseline)", percentile(roundTrip, 0.99), 'ms', {
      detail: conditions,
    });

    for (const w of waiters) w.stopped = true;
    // answers every held pull with a reset; the relay drops their waiters on 'close'
    agent.destroy();
    await Promise.all(running);
    add(
      SECTION,
      'idle.requests',
      `requests/s of ${plan.waiters} idle held pulls (wait=${plan.wait})`,
      idleRate,
      'req/s',
      {
        // the target is for 1,000 pulls of 25 s; the quick plan's short waits cannot meet it
        target: opts.quick ? undefined : { op: '<=', value: 45 },
        detail: `counted by the clients over ${plan.idleSeconds} s; relay CPU meanwhile ${(idleCpu * 100).toFixed(1)} % of a core`,
      },
    );

    // baseline: the same clients polling every `pollEvery` seconds without wait, spread evenly
    log(`(c) baseline: ${plan.waiters} clients polling every ${plan.pollEvery} s for ${plan.pollSeconds} s`);
    const poll = await pollingRate(base, pid, people, plan.pollEvery, plan.pollSeconds);
    add(
      SECTION,
      'idle.requests.polling',
      `requests/s of ${plan.waiters} idle clients polling every ${plan.pollEvery} s (baseline)`,
      poll.rate,
      'req/s',
      {
        detail: `counted over ${plan.pollSeconds} s; relay CPU meanwhile ${(poll.cpu * 100).toFixed(1)} % of a core`,
      },
    );

    const exit = await relay.stop();
    relay = null;
    if (exit.code !== 0)
      throw new Error(`the relay did not exit cleanly on SIGTERM (code ${exit.code}, signal ${exit.signal})`);
    if (opts.quick) for (const f of figures) f.detail = `QUICK RUN${f.detail ? `; ${f.detail}` : ''}`;
    return figures;
  } finally {
    agent.destroy();
    await relay?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Clients polling without wait, each every `every` seconds, their starts spread over the first interval. */
async function pollingRate(
  base: string,
  pid: number,
  people: SignedIn[],
  every: number,
  seconds: number,
): Promise<{ rate: number; cpu: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, scheduling: 'fifo' });
  let count = 0;
  let stopped = false;
  try {
    const loops = people.map(async (p, i) => {
      const client = new KeepAliveClient(base, p.apiKey, agent);
      await sleep((i * every * 1000) / people.length);
      while (!stopped) {
        const started = performance.now();
        count++;
        await client.call('GET', '/api/v1/envelopes');
        await sleep(Math.max(0, every * 1000 - (performance.now() - started)));
      }
    });
    // counted from the end of the first interval, when every client is polling
    await sleep(every * 1000);
    const c0 = count;
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    await sleep(seconds * 1000);
    const elapsed = (performance.now() - t0) / 1000;
    const result = { rate: (count - c0) / elapsed, cpu: (cpuSeconds(pid) - cpu0) / elapsed };
    stopped = true;
    await Promise.all(loops);
    return result;
  } finally {
    agent.destroy();
  }
}

/** user + system CPU seconds of a process so far, from /proc (clock ticks at 100 Hz on Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // after "pid (comm) ": state is field 3, utime 14 and stime 15 (1-based in proc(5))
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
