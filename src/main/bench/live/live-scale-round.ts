/**
 * One round of the live-scale bench: fresh relay processes and generator processes (forked
 * live-scale-worker.ts), the receivers' held pulls brought online, the sends at the plan's rate,
 * and what the round measured.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryMiB, startBuilt, type Child } from '../../test-support/child-process.js';
import type { SeededWallet } from './live-scale-seed.js';
import { monotonicMs, type FromWorker, type Receiver, type ToWorker } from './live-scale-worker.js';
import { GRACE_MS, type Plan } from './live-scale-plan.js';
import { cpuSeconds, postgresCpuSeconds } from './process-cpu.js';
import { busyShare, readCpuTimes, stealShare } from '../cpu-steal.js';

const WORKER = fileURLToPath(new URL('./live-scale-worker.ts', import.meta.url));

/** A forked generator process and the messages it has sent, awaited by type. */
class Worker {
  readonly proc: ChildProcess;
  readonly #waiting = new Map<string, Array<(m: FromWorker) => void>>();
  #failure: Error | null = null;

  constructor() {
    this.proc = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.proc.on('message', (m: FromWorker) => {
      if (m.type === 'error') this.#failure = new Error(`a generator process failed: ${m.message}`);
      const w = this.#waiting.get(m.type)?.shift();
      w?.(m);
    });
  }

  ask<T extends FromWorker['type']>(m: ToWorker, answer: T): Promise<Extract<FromWorker, { type: T }>> {
    return new Promise((resolve, reject) => {
      if (this.#failure) return reject(this.#failure);
      const list = this.#waiting.get(answer) ?? [];
      list.push((x) => resolve(x as Extract<FromWorker, { type: T }>));
      this.#waiting.set(answer, list);
      const onError = (x: FromWorker) => x.type === 'error' && reject(new Error(x.message));
      this.proc.on('message', onError);
      this.proc.send(m);
    });
  }

  stop(): void {
    if (this.proc.connected) this.proc.send({ type: 'stop' } satisfies ToWorker);
  }
}

/**
 * LIVE_SCALE_RELAY_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) go to the relays' node
 * only: where a relay's time goes under this load.
 */
const relayFlags = (): string[] => process.env.LIVE_SCALE_RELAY_FLAGS?.split(' ').filter(Boolean) ?? [];

/** What one round measured. */
export interface Round {
  /** the measured sends' latencies, sorted */
  latencies: number[];
  /** the measured sends */
  sends: number;
  /** the warm-up's sends, and the latencies of those delivered, sorted */
  warmupSends: number;
  warmupLatencies: number[];
  achieved: number;
  latestMs: number;
  /** pulls in flight from the receivers when the sends began */
  holding: number;
  holdingRss: number[];
  peakRss: number[];
  relayCpu: number[];
  genCpu: number[];
  /** PostgreSQL's processes, share of a core (cluster only) */
  dbCpu: number;
  /** the whole machine, share of a core (all its cores: up to their count) */
  machineCpu: number;
  /** the share of the machine's CPU time the hypervisor gave to other guests meanwhile (0–1) */
  stolen: number;
  pulls: number;
  receiverFailures: number;
  /** sends that got no 200 (a reset connection): not counted as sent */
  sendFailures: number;
  firstSendError: string | null;
  firstError: string | null;
  clockSlack: number;
  /** the machine's load average before and after the round */
  load?: string;
}

export interface Setup {
  plan: Plan;
  nodes: number;
  wallets: SeededWallet[];
  sender: SeededWallet;
  /** the relay's arguments but for --data and --database */
  relayArgs: string[];
  /** each round's own copy of the seeded database: nothing for SQLite (that copy is in `dataDir`), `--database URL` for PostgreSQL */
  databaseArgs: () => Promise<string[]>;
  /** a fresh data folder for a node of a round */
  dataDir: (node: number) => string;
  log: (line: string) => void;
}

/** One round: fresh relay processes and generator processes, the receivers brought online, the sends, the tallies. */
export async function round(setup: Setup): Promise<Round> {
  const { plan, nodes, wallets, sender, log } = setup;
  const relays: Child[] = [];
  const workers: Worker[] = [];
  try {
    const database = await setup.databaseArgs();
    for (let n = 0; n < nodes; n++) {
      const id = nodes === 2 ? ['--node-id', `node-${n}`] : [];
      relays.push(
        await startBuilt(
          'relay',
          ['--data', setup.dataDir(n), ...setup.relayArgs, ...database, ...id],
          /^relay listening on (\S+)/,
          60_000,
          relayFlags(),
        ),
      );
    }
    const bases = relays.map((r) => r.ready);
    const pids = relays.map((r) => r.proc.pid!);
    for (let i = 0; i <= plan.workers; i++) workers.push(new Worker());
    const receiving = workers.slice(0, plan.workers);
    const sending = workers[plan.workers];
    // one clock for all: each worker's reading must fall between this process's readings around
    // it; the tightest such bracket says how closely that is shown (the IPC round trip)
    let clockSlack = Infinity;
    for (const w of workers) {
      for (let k = 0; k < 3; k++) {
        const before = monotonicMs();
        const { at } = await w.ask({ type: 'clock' }, 'clock');
        const after = monotonicMs();
        if (at < before || at > after)
          throw new Error(`a worker's monotonic clock (${at}) is not this process's (${before}–${after})`);
        clockSlack = Math.min(clockSlack, after - before);
      }
    }

    // the receivers split over the processes, and over the nodes in turn
    const to: Receiver[] = wallets.map((w, i) => ({
      address: w.address,
      deviceKey: w.deviceKey,
      base: bases[i % bases.length],
    }));
    log(
      `${to.length} receivers coming online over ${plan.wait} s (wait=${plan.wait}) on ${bases.join(', ')} from ${plan.workers} processes`,
    );
    await Promise.all(
      receiving.map((w, k) =>
        w.ask(
          {
            type: 'receivers',
            who: to.flatMap((r, i) => (i % plan.workers === k ? [{ ...r, apiKey: wallets[i].apiKey }] : [])),
            wait: plan.wait,
            spreadMs: plan.wait * 1000,
          },
          'held',
        ),
      ),
    );
    await sleep(2000);
    const holdingRss = pids.map((p) => memoryMiB(p).rss);

    const cpuOf = async () => Promise.all(workers.map((w) => w.ask({ type: 'cpu' }, 'cpu')));
    const relayCpu0 = pids.map(cpuSeconds);
    const dbCpu0 = nodes === 2 ? postgresCpuSeconds() : 0;
    const machine0 = readCpuTimes();
    const marks0 = await cpuOf();
    const genCpu0 = marks0.map((c) => c.micros / 1e6);
    const holding = marks0.reduce((n, c) => n + c.holding, 0);
    log(`${holding} pulls held`);
    const w0 = monotonicMs();
    let peakRss = holdingRss.slice();
    const sampler = setInterval(() => (peakRss = pids.map((p, i) => Math.max(peakRss[i], memoryMiB(p).rss))), 250);
    log(
      `${plan.rate} sends/s for ${plan.warmup} s of warm-up and ${plan.seconds} s measured to them in turn, through ${nodes === 2 ? 'either node' : 'the relay'}`,
    );
    const sent = await sending.ask(
      {
        type: 'send',
        bases,
        apiKey: sender.apiKey,
        to,
        rate: plan.rate,
        warmup: plan.warmup,
        seconds: plan.seconds,
        connections: plan.connections,
      },
      'sent',
    );
    await sleep(GRACE_MS);
    clearInterval(sampler);
    const windowSeconds = (monotonicMs() - w0) / 1000;
    const relayCpu = pids.map((p, i) => (cpuSeconds(p) - relayCpu0[i]) / windowSeconds);
    const dbCpu = nodes === 2 ? (postgresCpuSeconds() - dbCpu0) / windowSeconds : 0;
    const machine1 = readCpuTimes();
    const machineCpu = busyShare(machine0, machine1) * availableParallelism();
    const stolen = stealShare(machine0, machine1);
    const genCpu = (await cpuOf()).map((c, i) => (c.micros / 1e6 - genCpu0[i]) / windowSeconds);
    const reports = await Promise.all(receiving.map((w) => w.ask({ type: 'report' }, 'report')));

    const arrivals = new Map<string, number>();
    for (const r of reports)
      for (const [id, at] of r.arrivals) arrivals.set(id, Math.min(at, arrivals.get(id) ?? Infinity));
    const latenciesOf = (sends: Array<[string, number]>) =>
      sends
        .filter(([id]) => arrivals.has(id))
        .map(([id, wrote]) => arrivals.get(id)! - wrote)
        .sort((x, y) => x - y);
    const measured = sent.sends.filter(([, wrote]) => wrote >= sent.measuredFrom);
    const warmup = sent.sends.filter(([, wrote]) => wrote < sent.measuredFrom);
    for (const w of workers) w.stop();
    for (const r of relays) {
      const exit = await r.stop();
      if (exit.code !== 0)
        throw new Error(`a relay did not exit cleanly on SIGTERM (code ${exit.code}, signal ${exit.signal})`);
    }
    return {
      latencies: latenciesOf(measured),
      sends: measured.length,
      warmupSends: warmup.length,
      warmupLatencies: latenciesOf(warmup),
      achieved: sent.sends.length / sent.seconds,
      latestMs: sent.latestMs,
      holding,
      holdingRss,
      peakRss,
      relayCpu,
      genCpu,
      dbCpu,
      machineCpu,
      stolen,
      pulls: reports.reduce((n, r) => n + r.pulls, 0),
      receiverFailures: reports.reduce((n, r) => n + r.failed, 0),
      sendFailures: sent.failed,
      firstSendError: sent.firstError,
      firstError: reports.find((r) => r.firstError)?.firstError ?? null,
      clockSlack,
    };
  } finally {
    for (const w of workers) w.stop();
    for (const r of relays) await r.stop();
  }
}
