/** The figures of the live-scale bench: each the median of the rounds', every round's value in its detail. */
import { availableParallelism } from 'node:os';
import { figure, percentile, type Figure } from '../report.js';
import { GRACE_MS, type Plan } from './live-scale-plan.js';
import type { Round } from './live-scale-round.js';

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);

/** Each figure the median of the rounds', every round's value in its detail. */
export function figuresOf(section: string, plan: Plan, nodes: number, results: Round[], quick: boolean): Figure[] {
  const each = (f: (r: Round) => number, digits = 2) => results.map((r) => f(r).toFixed(digits)).join(', ');
  const p50 = (r: Round) => percentile(r.latencies, 0.5);
  const p99 = (r: Round) => percentile(r.latencies, 0.99);
  // the warm-up's sends too: each one must arrive
  const arrivedAll = (r: Round) => r.latencies.length + r.warmupLatencies.length;
  const sentAll = (r: Round) => r.sends + r.warmupSends;
  const delivered = (r: Round) => (arrivedAll(r) / sentAll(r)) * 100;
  const rss = (r: Round) => Math.max(...r.peakRss);
  const relayCpu = (r: Round) => sum(r.relayCpu) * 100;
  const genCpu = (r: Round) => sum(r.genCpu) * 100;
  const rounds = `median of ${results.length} round${results.length === 1 ? '' : 's'} (load ${results.map((r) => r.load).join('; ')})`;
  const conditions =
    `${plan.receivers} held pulls (wait=${plan.wait}) on ${nodes === 1 ? 'one relay' : 'two nodes'}, ${plan.rate} sends/s asked for ${plan.seconds} s after ${plan.warmup} s of warm-up at that rate; ` +
    `generator: ${plan.workers} receiver processes and a sender; ${rounds}`;
  const figures = [
    figure(section, 'p50', 'send written → held pull answered, p50', median(results.map(p50)), 'ms', {
      target: { op: '<=', value: 5 },
      detail: `${conditions}; rounds: ${each(p50)} ms`,
    }),
    figure(section, 'p99', 'send written → held pull answered, p99', median(results.map(p99)), 'ms', {
      target: { op: '<=', value: nodes === 1 ? 25 : 50 },
      detail:
        `rounds: ${each(p99)} ms; worst ${each((r) => r.latencies[r.latencies.length - 1] ?? NaN, 0)} ms; ` +
        `the warm-up's (not counted): p99 ${each((r) => percentile(r.warmupLatencies, 0.99))} ms; clocks shown one within ${Math.max(...results.map((r) => r.clockSlack)).toFixed(2)} ms`,
    }),
    figure(
      section,
      'delivered',
      `delivered within ${GRACE_MS / 1000} s of the last send`,
      median(results.map(delivered)),
      '%',
      {
        target: { op: '>=', value: 99.9 },
        detail: `rounds: ${results.map((r) => `${arrivedAll(r)} of ${sentAll(r)}`).join(', ')} (the warm-up's included); receivers' failed requests ${each((r) => r.receiverFailures, 0)}${results.find((r) => r.firstError) ? ` (first: ${results.find((r) => r.firstError)!.firstError})` : ''}`,
      },
    ),
    figure(section, 'rate', 'sends achieved', median(results.map((r) => r.achieved)), 'req/s', {
      target: { op: '>=', value: plan.rate * 0.98, note: `${plan.rate}/s asked` },
      detail:
        `rounds: ${each((r) => r.achieved, 0)}; the sender's latest write behind its schedule ${each((r) => r.latestMs, 1)} ms; ` +
        `sends without a 200 ${each((r) => r.sendFailures, 0)}${results.find((r) => r.firstSendError) ? ` (first: ${results.find((r) => r.firstSendError)!.firstSendError})` : ''}`,
    }),
    figure(
      section,
      'rss',
      `relay RSS holding the pulls during the sends, peak${nodes === 2 ? ' of the larger node' : ''}`,
      median(results.map(rss)),
      'MiB',
      {
        target: { op: '<=', value: 250 },
        detail: `rounds: ${each(rss, 0)} MiB; holding ${each((r) => r.holding, 0)} pulls before the sends: ${results.map((r) => r.holdingRss.map((x) => x.toFixed(0)).join(' / ')).join(', ')} MiB`,
      },
    ),
    figure(
      section,
      'relay_cpu',
      `relay CPU during the sends${nodes === 2 ? ', both nodes' : ''}`,
      median(results.map(relayCpu)),
      '% of a core',
      { detail: `rounds: ${each(relayCpu, 0)}` },
    ),
    figure(
      section,
      'generator_cpu',
      'load generator CPU during the sends, all its processes',
      median(results.map(genCpu)),
      '% of a core',
      {
        detail: `rounds: ${each(genCpu, 0)}; of which the sender ${each((r) => r.genCpu[r.genCpu.length - 1] * 100, 0)}; pulls answered ${each((r) => r.pulls, 0)}`,
      },
    ),
    ...(nodes === 2
      ? [
          figure(
            section,
            'database_cpu',
            'PostgreSQL CPU during the sends, all its processes',
            median(results.map((r) => r.dbCpu * 100)),
            '% of a core',
            { detail: `rounds: ${each((r) => r.dbCpu * 100, 0)}` },
          ),
        ]
      : []),
    figure(
      section,
      'machine_cpu',
      `the whole machine busy during the sends (${availableParallelism()} cores: at most ${availableParallelism() * 100})`,
      median(results.map((r) => r.machineCpu * 100)),
      '% of a core',
      {
        detail: `rounds: ${each((r) => r.machineCpu * 100, 0)}; /proc/stat, neither idle nor stolen; stolen by the hypervisor meanwhile ${each((r) => r.stolen * 100, 1)} % of the CPU time`,
      },
    ),
  ];
  if (quick) for (const f of figures) f.detail = `QUICK RUN${f.detail ? `; ${f.detail}` : ''}`;
  return figures;
}
