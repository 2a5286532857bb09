/**
 * The cluster section of `npm run bench -- --only cluster`: two relay nodes on one
 * PostgreSQL database against one SQLite relay, in the same run and the same process, with
 * autocannon beside them. On this 2-core machine it measures what the cluster costs, not how it
 * scales: the nodes, PostgreSQL and the load generator share the same two cores.
 */
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay } from '../../relay/app.js';
import { openClusterNode, type ClusterNodeDeps } from '../../relay/cluster-node.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../../relay/config.js';
import { LocalDoorbell } from '../../relay/live/doorbell.js';
import { openSqliteStore } from '../../relay/store/sqlite/sqlite-store.js';
import { startPgCluster } from '../../test-support/pg-cluster.js';
import { openNotifyHop } from '../../test-support/pg-notify-hop.js';
import type { RelayStore } from '../../relay/store/store.js';
import { envelopeBodies } from '../../test-support/sealed-like.js';
import { callJson, signIn } from '../../test-support/sign-in.js';
import { postLoad, type LoadResult } from './load.js';
import { figure, percentile, type Figure } from '../report.js';
import { describeRounds, roundsInTurn, type RoundsOptions } from '../rounds-in-turn.js';

const SECTION = 'cluster';

export interface ClusterBenchOptions {
  quick?: boolean;
  log?: (line: string) => void;
}

const CONFIG: RelayConfig = {
  ...DEFAULT_CONFIG,
  baseUrl: 'http://127.0.0.1',
  rateLimit: 0,
  minFreeDiskMib: 0,
  maxQueued: 100_000_000,
  maxQueuedMib: 1_048_576,
  maxRequestsPerPair: 100_000_000,
};

interface Served {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

async function serve(
  store: RelayStore,
  extra: Partial<Parameters<typeof createRelay>[0]>,
  close: () => Promise<void>,
): Promise<Served> {
  const app = await createRelay({ store, config: CONFIG, ...extra });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    async close() {
      await app.close();
      await close();
    },
  };
}

/** A node of the cluster; `doorbell: false` rings only its own held pulls (the doorbell's cost, measured). */
async function clusterNode(databaseUrl: string, nodeId: string, doorbell = true): Promise<Served> {
  const node: ClusterNodeDeps = await openClusterNode(databaseUrl, { nodeId });
  return serve(
    node.store,
    {
      doorbell: doorbell ? node.doorbell : new LocalDoorbell(),
      revocations: node.revocations,
      rateLimitStore: node.rateLimitStore,
    },
    () => node.close(),
  );
}

/**
 * The comparisons' rounds (rounds-in-turn.ts): a round in which the hypervisor took more than 2 %
 * of the machine's CPU time during either side is measured again, up to four times a comparison.
 * Stolen time moves the cluster's pulls, which keep both cores busy, far more than SQLite's, which
 * keep one (docs/benchmarks.md, cluster).
 */
const STEAL_LIMIT = 0.02;
const roundOptions = (what: string, rounds: number, log?: (line: string) => void): RoundsOptions => ({
  rounds,
  stealLimit: STEAL_LIMIT,
  retries: 4,
  onRound:
    log &&
    ((steal, kept) =>
      log(`${what}: a round with ${(steal * 100).toFixed(1)} % stolen, ${kept ? 'kept' : 'measured again'}`)),
});
const mean = (xs: number[]) => xs.reduce((t, x) => t + x, 0) / xs.length;

/** Single-envelope sends spread over `urls`, the connections split between them. */
async function sends(
  urls: string[],
  bodies: string[],
  apiKey: string,
  connections: number,
  seconds: number,
): Promise<number> {
  const runs: LoadResult[] = await Promise.all(
    urls.map((url) =>
      postLoad({
        url: `${url}/api/v1/envelopes`,
        bodies,
        apiKey,
        connections: Math.max(1, connections / urls.length),
        duration: seconds,
      }),
    ),
  );
  for (const r of runs)
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`sends: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
  return runs.reduce((t, r) => t + r.rate, 0);
}

/**
 * Each answered pull's time in fractions of a millisecond: autocannon's own summary keeps whole
 * milliseconds (its histogram holds integers), which turned SQLite's sub-millisecond pulls into
 * "0 ms" and the ratio into nonsense; each response's time as autocannon measured it (hrtime) is
 * kept here.
 */
async function pullTimes(url: string, apiKey: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: `${url}/api/v1/envelopes?limit=100`,
        connections: 1,
        duration: seconds,
        headers: { authorization: `Bearer ${apiKey}` },
      },
      (err, result) => (err ? reject(err as Error) : resolve(result)),
    );
    run.on('response', (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) times.push(ms);
    });
  });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`pulls: ${r.non2xx} non-2xx, ${r.errors} errors`);
  if (times.length === 0) throw new Error('pulls: no answer in the measured time');
  return times;
}

const sortedCopy = (times: number[]) => [...times].sort((x, y) => x - y);

export async function benchCluster(opts: ClusterBenchOptions = {}): Promise<Figure[]> {
  const log = opts.log ?? (() => undefined);
  const seconds = opts.quick ? 2 : 5;
  const warmUp = opts.quick ? 1 : 5;
  const rounds = opts.quick ? 1 : 2;
  const wakes = opts.quick ? 50 : 300;
  const figures: Figure[] = [];
  const add = (...args: Parameters<typeof figure>) => figures.push(figure(...args));
  const pg = startPgCluster();
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-cluster-'));
  const served: Served[] = [];
  try {
    const sqliteStore = openSqliteStore(join(dir, 'relay.db'), { checkpointIntervalMs: 0 });
    const single = await serve(sqliteStore, { dataDir: dir }, () => sqliteStore.close());
    served.push(single);
    const databaseUrl = await pg.createDatabase();
    const a = await clusterNode(databaseUrl, 'a');
    const b = await clusterNode(databaseUrl, 'b');
    served.push(a, b);
    log(`sqlite ${single.url}; cluster nodes ${a.url} ${b.url} on ${pg.dir}`);

    // the same senders and recipients on both relays
    const setUp = async (url: string) => {
      const sender = await signIn(url, 'bench sender');
      const recipients = await Promise.all([1, 2, 3, 4].map((i) => signIn(url, `bench recipient ${i}`)));
      return { sender, bodies: envelopeBodies(recipients, 256, 1), reader: recipients[0] };
    };
    const onSqlite = await setUp(single.url);
    const onCluster = await setUp(a.url);

    // (1) sends/s, alternating rounds so that the machine's drift hits both alike, each relay
    // warmed up first: a cold one (code not yet optimised, connections not yet opened and their
    // statements not prepared, tables not yet analysed) runs well below its steady rate for its
    // first seconds, the cluster longer than SQLite.
    await sends([single.url], onSqlite.bodies, onSqlite.sender.apiKey, 32, warmUp);
    await sends([a.url, b.url], onCluster.bodies, onCluster.sender.apiKey, 32, warmUp);
    const sendRounds = await roundsInTurn(
      roundOptions('sends', rounds, log),
      () => sends([single.url], onSqlite.bodies, onSqlite.sender.apiKey, 32, seconds),
      () => sends([a.url, b.url], onCluster.bodies, onCluster.sender.apiKey, 32, seconds),
    );
    const sqliteRate = mean(sendRounds.a);
    const clusterRate = mean(sendRounds.b);
    add(SECTION, 'sends_sqlite', 'single-envelope sends, one SQLite relay', sqliteRate, 'req/s');
    add(SECTION, 'sends_cluster', 'single-envelope sends, two nodes on one PostgreSQL', clusterRate, 'req/s');
    add(
      SECTION,
      'sends_ratio',
      'cluster sends / SQLite sends (2 cores: overhead, not scaling)',
      clusterRate / sqliteRate,
      '×',
      { target: { op: '>=', value: 0.5 }, detail: describeRounds(sendRounds, STEAL_LIMIT) },
    );

    // (2) pull p99 of a 100-envelope page (the readers' inboxes hold thousands by now). Each
    // relay's pulls warmed up first and the sides in turn, as for the sends: measured once each,
    // right after the sends, one side took the process's full collections of the sends' garbage
    // and the other none.
    await pullTimes(single.url, onSqlite.reader.apiKey, warmUp);
    await pullTimes(b.url, onCluster.reader.apiKey, warmUp);
    const pullRounds = await roundsInTurn(
      roundOptions('pulls', rounds, log),
      () => pullTimes(single.url, onSqlite.reader.apiKey, seconds),
      () => pullTimes(b.url, onCluster.reader.apiKey, seconds),
    );
    const sqlitePulls = pullRounds.a.flat();
    const clusterPulls = pullRounds.b.flat();
    const [sqliteSorted, clusterSorted] = [sortedCopy(sqlitePulls), sortedCopy(clusterPulls)];
    const sqlitePull = percentile(sqliteSorted, 0.99);
    const clusterPull = percentile(clusterSorted, 0.99);
    add(SECTION, 'pull_p50_sqlite', 'inbox pull p50, 100 envelopes, SQLite', percentile(sqliteSorted, 0.5), 'ms', {
      detail: `${sqlitePulls.length} pulls`,
    });
    add(
      SECTION,
      'pull_p50_cluster',
      'inbox pull p50, 100 envelopes, a cluster node',
      percentile(clusterSorted, 0.5),
      'ms',
      { detail: `${clusterPulls.length} pulls` },
    );
    add(SECTION, 'pull_p99_sqlite', 'inbox pull p99, 100 envelopes, SQLite', sqlitePull, 'ms');
    add(SECTION, 'pull_p99_cluster', 'inbox pull p99, 100 envelopes, a cluster node', clusterPull, 'ms');
    add(
      SECTION,
      'pull_p99_ratio',
      'cluster pull p99 / SQLite pull p99',
      clusterPull / Math.max(sqlitePull, 0.001),
      '×',
      { target: { op: '<=', value: 2 }, detail: describeRounds(pullRounds, STEAL_LIMIT) },
    );

    // (3) cross-node wake: a pull held on B, a send on A; from the send's 200 to the pull's answer.
    // In rounds of 50, each beside 50 bare NOTIFYs heard on another connection (the machine's floor
    // for any PostgreSQL doorbell), and measured again under stolen CPU time like the comparisons.
    // The baseline tells a slow wake from a slow machine: it showed that slow wakes in some runs
    // were the sleeper's pull on a cached generic plan reading the whole queue (docs/benchmarks.md, cluster).
    const waker = await signIn(a.url, 'bench waker');
    const sleeper = await signIn(b.url, 'bench sleeper');
    const one = envelopeBodies([{ address: sleeper.address, deviceKey: sleeper.deviceKey }], 1, 1)[0];
    const wakeTimes = async (count: number): Promise<number[]> => {
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const held = fetch(`${b.url}/api/v1/envelopes?wait=25`, {
          headers: { authorization: `Bearer ${sleeper.apiKey}` },
        }).then(async (r) => {
          const body = (await r.json()) as { envelopes: Array<{ id: string }> };
          return { at: performance.now(), ids: body.envelopes.map((e) => e.id) };
        });
        while (b.app.heldPulls === 0) await new Promise((resolve) => setImmediate(resolve));
        await callJson('POST', `${a.url}/api/v1/envelopes`, waker.apiKey, JSON.parse(one));
        const sentAt = performance.now();
        const woke = await held;
        latencies.push(Math.max(0, woke.at - sentAt));
        await callJson('POST', `${b.url}/api/v1/envelopes/ack`, sleeper.apiKey, { ids: woke.ids });
      }
      return latencies;
    };
    // each round's median beside its stolen share (onRound), to tell a slow round from a slow machine
    const logMedian = (what: string) => (times: number[]) => {
      log(`${what}: p50 ${percentile(sortedCopy(times), 0.5).toFixed(2)} ms`);
      return times;
    };
    const hop = await openNotifyHop(databaseUrl);
    const perRound = 50;
    const wakeRounds = await roundsInTurn(
      roundOptions('wakes', Math.max(1, Math.round(wakes / perRound)), log),
      () => wakeTimes(perRound).then(logMedian('wakes')),
      () => hop.measure(perRound).then(logMedian('bare NOTIFY hops')),
    ).finally(() => hop.close());
    const latencies = sortedCopy(wakeRounds.a.flat());
    const hops = sortedCopy(wakeRounds.b.flat());
    add(SECTION, 'wake_p50', 'cross-node wake, send 200 → held pull answered, p50', percentile(latencies, 0.5), 'ms', {
      target: { op: '<=', value: 15 },
    });
    add(SECTION, 'wake_p99', 'cross-node wake, p99', percentile(latencies, 0.99), 'ms', {
      target: { op: '<=', value: 60 },
      detail: `${latencies.length} wakes; ${describeRounds(wakeRounds, STEAL_LIMIT)}`,
    });
    add(
      SECTION,
      'notify_hop_p50',
      'baseline: a bare NOTIFY heard on another connection, p50',
      percentile(hops, 0.5),
      'ms',
      { detail: `${hops.length} hops, in turn with the wakes` },
    );
    add(
      SECTION,
      'notify_hop_p99',
      'baseline: a bare NOTIFY heard on another connection, p99',
      percentile(hops, 0.99),
      'ms',
    );

    // (4) the doorbell's cost: two fresh pairs of nodes, each on its own new database, one pair
    // ringing over NOTIFY and the other each node ringing only itself; both set up and warmed up
    // alike, so that neither a colder process nor a fuller database is counted as the doorbell's
    const bellDb = await pg.createDatabase();
    const ba = await clusterNode(bellDb, 'ba');
    const bb = await clusterNode(bellDb, 'bb');
    const quietDb = await pg.createDatabase();
    const qa = await clusterNode(quietDb, 'qa', false);
    const qb = await clusterNode(quietDb, 'qb', false);
    served.push(ba, bb, qa, qb);
    const onBell = await setUp(ba.url);
    const onQuiet = await setUp(qa.url);
    await sends([ba.url, bb.url], onBell.bodies, onBell.sender.apiKey, 32, warmUp);
    await sends([qa.url, qb.url], onQuiet.bodies, onQuiet.sender.apiKey, 32, warmUp);
    // Four times the rounds of the other figures: runs of one configuration differ by more than
    // this target's margin, and the doorbell's cost is a few per cent.
    const bellRounds = await roundsInTurn(
      roundOptions('doorbell', rounds * 4, log),
      () => sends([qa.url, qb.url], onQuiet.bodies, onQuiet.sender.apiKey, 32, seconds),
      () => sends([ba.url, bb.url], onBell.bodies, onBell.sender.apiKey, 32, seconds),
    );
    const without = mean(bellRounds.a);
    const withBell = mean(bellRounds.b);
    add(SECTION, 'doorbell_ratio', 'cluster sends with the NOTIFY doorbell / without', withBell / without, '×', {
      target: { op: '>=', value: 0.9 },
      detail: `${Math.round(withBell)} vs ${Math.round(without)} req/s; ${describeRounds(bellRounds, STEAL_LIMIT)}`,
    });
    return figures;
  } finally {
    for (const s of served.reverse()) await s.close().catch(() => undefined);
    pg.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
