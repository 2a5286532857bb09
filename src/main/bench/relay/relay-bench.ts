/**
 * The relay section of `npm run bench`: the real CLI as a child process on 127.0.0.1 port 0
 * (rate limit off, fresh data folder), driven over loopback through its public API, next to
 * a bare node:http echo server as the ceiling of this machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryMiB, runTs, startBuilt, startTs, type Child } from '../../test-support/child-process.js';
import { KeepAliveClient } from '../http/keep-alive-client.js';
import { LeanHttpClient } from '../http/lean-http-client.js';
import { assertClean, combine, postLoad, type LoadResult } from './load.js';
import { figure, percentile, type Figure } from '../report.js';
import { envelopeBodies } from '../../test-support/sealed-like.js';
import { callJson, signIn, type SignedIn } from '../../test-support/sign-in.js';

const RELAY_CLI = fileURLToPath(new URL('../../relay/cli.ts', import.meta.url));
const ECHO_SERVER = fileURLToPath(new URL('../http/echo-server.ts', import.meta.url));
const SECTION = 'relay';

export interface RelayBenchOptions {
  /** shorter runs and a 10,000-envelope background: a smoke test of the harness, not figures to quote */
  quick?: boolean;
  log?: (line: string) => void;
}

interface Plan {
  warmup: number;
  seconds: number;
  /** (a) and (b) alternate in this many rounds sharing `seconds` each */
  rounds: number;
  connections: number;
  batchConnections: number;
  background: number;
  pulls: number;
  pullSeconds: number;
  acks: number;
  ackSeconds: number;
}

const FULL: Plan = {
  warmup: 1,
  seconds: 8,
  rounds: 4,
  connections: 96,
  batchConnections: 16,
  background: 100_000,
  pulls: 2_000,
  pullSeconds: 10,
  acks: 30_000,
  ackSeconds: 10,
};
const QUICK: Plan = {
  warmup: 0.5,
  seconds: 2,
  rounds: 2,
  connections: 64,
  batchConnections: 8,
  background: 10_000,
  pulls: 300,
  pullSeconds: 3,
  acks: 5_000,
  ackSeconds: 3,
};

export async function benchRelay(opts: RelayBenchOptions = {}): Promise<Figure[]> {
  const plan = opts.quick ? QUICK : FULL;
  const log = opts.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const children: Child[] = [];
  const figures: Figure[] = [];
  const add = (...args: Parameters<typeof figure>) => {
    const f = figure(...args);
    figures.push(f);
    return f;
  };
  try {
    const echo = await startTs(ECHO_SERVER, [], /^echo listening on (\S+)/);
    children.push(echo);
    // the built relay, as `npm run relay` runs it (run.ts builds first). Quotas lifted: four
    // recipients hold hundreds of thousands of envelopes here, far past the per-device defaults
    // (the quota check itself still runs on every send).
    const relay = await startBuilt(
      'relay',
      [
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--data',
        dataDir,
        '--rate-limit',
        '0',
        '--max-queued',
        '100000000',
        '--max-queued-mib',
        '1048576',
      ],
      /^relay listening on (\S+)/,
    );
    children.push(relay);
    const base = relay.ready;
    const pid = relay.proc.pid!;
    log(`relay ${base} (pid ${pid}), echo ${echo.ready}, data ${dataDir}`);

    await sleep(1000);
    const idle = memoryMiB(pid);
    add(SECTION, 'rss.idle', 'relay RSS, idle after start (built)', idle.rss, 'MiB', {
      target: { op: '<=', value: 80 },
    });
    // the baseline: the same relay run from source under tsx, as before the build existed
    const sourceData = join(dataDir, 'from-source');
    const fromSource = await startTs(
      RELAY_CLI,
      ['--host', '127.0.0.1', '--port', '0', '--data', sourceData, '--rate-limit', '0'],
      /^relay listening on (\S+)/,
    );
    await sleep(1000);
    add(
      SECTION,
      'rss.idle_tsx',
      'relay RSS, idle after start (from source under tsx, baseline)',
      memoryMiB(fromSource.proc.pid!).rss,
      'MiB',
    );
    await fromSource.stop();

    // one sender, four recipients that accept it, and the caller whose inbox is pulled
    const alice = await signIn(base, 'bench sender');
    const others = await Promise.all([1, 2, 3, 4].map((i) => signIn(base, `bench recipient ${i}`)));
    const carol = await signIn(base, 'bench reader');
    for (const r of [...others, carol]) await callJson('PUT', `${base}/api/v1/contacts/${alice.address}`, r.apiKey);
    const targets = others.map((o) => ({ address: o.address, deviceKey: o.deviceKey }));
    const singles = envelopeBodies(targets, 512, 1);
    const batches = envelopeBodies(targets, 32, 100);
    const sendUrl = `${base}/api/v1/envelopes`;

    // (a) the ceiling and (b) one envelope per request, with the same bodies, measured in
    // alternating rounds: this machine's speed drifts by ±20 % within a minute, and a ratio
    // of two figures taken at different moments measured the drift as much as the relay.
    log(
      `(a) echo and (b) single sends: ${plan.connections} connections, ${plan.rounds} alternating rounds of ${plan.seconds / plan.rounds} s each`,
    );
    const echoLoad = (duration: number) =>
      postLoad({ url: echo.ready, bodies: singles, connections: plan.connections, duration });
    const sendLoad = (duration: number) =>
      postLoad({ url: sendUrl, apiKey: alice.apiKey, bodies: singles, connections: plan.connections, duration });
    await echoLoad(plan.warmup);
    await sendLoad(plan.warmup);
    const aRounds: LoadResult[] = [];
    const bRounds: LoadResult[] = [];
    for (let round = 0; round < plan.rounds; round++) {
      aRounds.push(await echoLoad(plan.seconds / plan.rounds));
      bRounds.push(await sendLoad(plan.seconds / plan.rounds));
    }
    const a = combine(aRounds);
    const b = combine(bRounds);
    assertClean('echo', a);
    assertClean('single sends', b);
    add(SECTION, 'echo', 'bare node:http JSON echo (ceiling)', a.rate, 'req/s', {
      detail: `${plan.connections} connections, ${a.seconds} s in ${plan.rounds} rounds, worst-round p99 ${a.latencyP99} ms`,
    });
    add(SECTION, 'send.single', 'single-envelope sends', b.rate, 'req/s', {
      target: { op: '>=', value: 0.5 * a.rate, note: '0.5 × echo' },
      detail: `${plan.connections} connections, ${b.seconds} s in ${plan.rounds} rounds (each after an echo round), worst-round p50 ${b.latencyP50} ms, p99 ${b.latencyP99} ms`,
    });
    add(SECTION, 'send.single.ratio', 'single sends / echo', b.rate / a.rate, '×', {
      target: { op: '>=', value: 0.5 },
      detail: `per round: ${bRounds.map((r, i) => (r.rate / aRounds[i].rate).toFixed(2)).join(', ')}`,
    });

    // (c) 100 envelopes per request
    log(`(c) batch sends: ${plan.batchConnections} connections, ${plan.seconds} s`);
    await postLoad({
      url: sendUrl,
      apiKey: alice.apiKey,
      bodies: batches,
      connections: plan.batchConnections,
      duration: plan.warmup,
    });
    const c = await postLoad({
      url: sendUrl,
      apiKey: alice.apiKey,
      bodies: batches,
      connections: plan.batchConnections,
      duration: plan.seconds,
    });
    assertClean('batch sends', c);
    add(SECTION, 'send.batch', 'envelopes in 100-envelope batches', c.rate * 100, 'env/s', {
      target: { op: '>=', value: 35_000 },
      detail: `${plan.batchConnections} connections, ${c.rate.toFixed(1)} req/s, p99 ${c.latencyP99} ms`,
    });

    // (d) background for the pull: at least `background` envelopes queued for the others
    let queued = await queuedEnvelopes(dataDir);
    if (queued < plan.background) {
      const requests = Math.ceil((plan.background - queued) / 100);
      log(`topping the queue up from ${queued} with ${requests} batches`);
      const top = await postLoad({
        url: sendUrl,
        apiKey: alice.apiKey,
        bodies: batches,
        connections: plan.batchConnections,
        duration: 600,
        amount: requests,
      });
      assertClean('top-up', top);
      queued = await queuedEnvelopes(dataDir);
    }
    const mine = envelopeBodies([{ address: carol.address, deviceKey: carol.deviceKey }], 1, 100)[0];
    const sent = (await callJson('POST', sendUrl, alice.apiKey, JSON.parse(mine))) as { results: { routed: string }[] };
    if (sent.results.length !== 100 || sent.results.some((r) => r.routed !== 'inbox'))
      throw new Error(
        `the reader's 100 envelopes were not all routed inbox: ${JSON.stringify(sent.results.slice(0, 3))}`,
      );

    log(`(d) inbox pulls: ${plan.pulls} sequential, ${queued} envelopes queued for others`);
    const pull = await pullLatencies(base, carol, plan.pulls, plan.pullSeconds);
    const detail = `${pull.count} sequential pulls of 100 envelopes, ${queued.toLocaleString('en-US')} queued for other recipients; write to last byte`;
    add(SECTION, 'pull.p50', 'inbox pull p50', pull.p50, 'ms', { detail });
    add(SECTION, 'pull.p99', 'inbox pull p99', pull.p99, 'ms', { target: { op: '<=', value: 3 }, detail });
    const sample = await callJson('GET', `${base}/api/v1/envelopes?limit=100`, carol.apiKey);
    const floor = await echoLatencies(echo.ready, sample, plan.pulls, plan.pullSeconds);
    add(SECTION, 'pull.floor.p99', 'echo p99, pull-sized body sent and returned', floor.p99, 'ms', {
      detail: `same client loop against the echo server, p50 ${floor.p50.toFixed(2)} ms`,
    });

    // (e) acks: a recipient drains its queue 500 at a time
    log(`(e) acks: up to ${plan.acks} envelopes`);
    const ack = await ackThroughput(base, others[0], plan.acks, plan.ackSeconds);
    add(SECTION, 'ack', 'acked envelopes (500 ids per ack)', ack.ackRate, 'env/s', {
      detail: `${ack.acked} acked; time in ack requests only`,
    });
    add(SECTION, 'ack.drain', 'pull + ack drain', ack.drainRate, 'env/s', {
      detail: 'pull 500, ack them, repeat; one client',
    });

    // (f) memory after the load
    const after = memoryMiB(pid);
    add(SECTION, 'rss.after', 'relay RSS after the run', after.rss, 'MiB');
    add(SECTION, 'rss.peak', 'relay peak RSS (VmHWM)', after.peak, 'MiB');

    const exit = await relay.stop();
    children.splice(children.indexOf(relay), 1);
    if (exit.code !== 0)
      throw new Error(
        `the relay did not exit cleanly on SIGTERM (code ${exit.code}, signal ${exit.signal}): ${relay.stderr().slice(-1000)}`,
      );
    if (opts.quick) for (const f of figures) f.detail = `QUICK RUN${f.detail ? `; ${f.detail}` : ''}`;
    return figures;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function queuedEnvelopes(dataDir: string): Promise<number> {
  const r = await runTs(RELAY_CLI, ['admin', '--data', dataDir, 'stats']);
  if (r.code !== 0) throw new Error(`admin stats failed (${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { queuedEnvelopes: number }).queuedEnvelopes;
}

/**
 * Sequential round trips of one lean keep-alive connection: p50 and p99 after a short warm-up,
 * each timed from the write to the last byte of the answer. The first answer is checked by
 * `check`; every timed one must be 200 and byte for byte the same as it (a pull does not
 * consume, and the echo returns what it was sent), so no answer goes unchecked and the loop
 * itself allocates nothing.
 */
async function latencies(
  baseUrl: string,
  request: (c: LeanHttpClient) => Buffer,
  check: (body: Buffer) => void,
  maxCount: number,
  maxSeconds: number,
): Promise<{ count: number; p50: number; p99: number }> {
  const client = new LeanHttpClient(new URL(baseUrl));
  await client.open();
  try {
    const bytes = request(client);
    await client.send(bytes);
    if (client.status() !== 200)
      throw new Error(`the first answer was ${client.status()}: ${client.body().toString('utf8', 0, 300)}`);
    const first = Buffer.from(client.body());
    check(first);
    const same = (i: number) => {
      if (client.status() !== 200 || !client.body().equals(first))
        throw new Error(
          `answer ${i} differs from the first (status ${client.status()}, ${client.body().length} bytes)`,
        );
    };
    for (let i = 0; i < 50; i++) {
      await client.send(bytes);
      same(i);
    }
    const times = new Float64Array(maxCount);
    let count = 0;
    const deadline = performance.now() + maxSeconds * 1000;
    while (count < maxCount && performance.now() < deadline) {
      const t0 = performance.now();
      await client.send(bytes);
      times[count] = performance.now() - t0;
      same(count++);
    }
    const sorted = Array.from(times.subarray(0, count)).sort((x, y) => x - y);
    return { count, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  } finally {
    client.close();
  }
}

function pullLatencies(base: string, reader: SignedIn, maxCount: number, maxSeconds: number) {
  return latencies(
    base,
    (c) => c.request('GET', '/api/v1/envelopes?limit=100', { authorization: `Bearer ${reader.apiKey}` }),
    (body) => {
      const n = (JSON.parse(body.toString('utf8')) as { envelopes: unknown[] }).envelopes.length;
      if (n !== 100) throw new Error(`a pull returned ${n} envelopes, expected 100`);
    },
    maxCount,
    maxSeconds,
  );
}

/** The same loop against the echo server with a body of the pull's size: the floor this machine sets right now. */
function echoLatencies(echoUrl: string, payload: unknown, maxCount: number, maxSeconds: number) {
  const body = JSON.stringify(payload);
  return latencies(
    echoUrl,
    (c) => c.request('POST', '/', {}, body),
    (answer) => {
      if (answer.toString('utf8') !== body) throw new Error('the echo server did not return the body it was sent');
    },
    maxCount,
    maxSeconds,
  );
}

async function ackThroughput(
  base: string,
  who: SignedIn,
  maxAcks: number,
  maxSeconds: number,
): Promise<{ acked: number; ackRate: number; drainRate: number }> {
  const client = new KeepAliveClient(base, who.apiKey);
  try {
    let acked = 0;
    let ackMs = 0;
    const t0 = performance.now();
    const deadline = t0 + maxSeconds * 1000;
    while (acked < maxAcks && performance.now() < deadline) {
      const { envelopes } = await client.call<{ envelopes: { id: string }[] }>('GET', '/api/v1/envelopes?limit=500');
      if (envelopes.length === 0) break;
      const t = performance.now();
      const r = await client.call<{ acked: number }>('POST', '/api/v1/envelopes/ack', {
        ids: envelopes.map((e) => e.id),
      });
      ackMs += performance.now() - t;
      if (r.acked !== envelopes.length) throw new Error(`acked ${r.acked} of ${envelopes.length} own envelopes`);
      acked += r.acked;
    }
    if (acked === 0) throw new Error('nothing to ack: the recipient queue is empty');
    return { acked, ackRate: acked / (ackMs / 1000), drainRate: acked / ((performance.now() - t0) / 1000) };
  } finally {
    client.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
