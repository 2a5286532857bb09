/**
 * CPU time the hypervisor gave to other guests while this virtual machine wanted it ("steal", the
 * eighth field of /proc/stat's `cpu` line). On a shared 2-core VM it comes in bursts of seconds,
 * and a measurement taken during one says more about the neighbours than about the code, the
 * more so for the cluster, whose pulls keep both cores busy, than for SQLite, whose pulls keep one
 * (docs/benchmarks.md, cluster).
 */
import { readFileSync } from 'node:fs';

export interface CpuTimes {
  /** ticks stolen, all cores */
  steal: number;
  /** ticks idle or waiting for I/O, all cores */
  idle: number;
  /** ticks of every kind (user … steal), all cores */
  total: number;
}

/** The machine-wide `cpu` line of /proc/stat's text; null when it has none. */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already
  // counted in user and nice, so only the first eight make up the total
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return null;
  return { steal: fields[7], idle: fields[3] + fields[4], total: fields.reduce((a, b) => a + b, 0) };
}

/** This machine's counters, or null where there is no /proc/stat (not Linux). */
export function readCpuTimes(): CpuTimes | null {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** The share (0–1) of all CPU time between two readings that was stolen; 0 when unknown. */
export function stealShare(before: CpuTimes | null, after: CpuTimes | null): number {
  if (!before || !after) return 0;
  const total = after.total - before.total;
  return total > 0 ? Math.max(0, after.steal - before.steal) / total : 0;
}

/** The share (0–1) of all CPU time between two readings that something ran (not idle, not stolen); 0 when unknown. */
export function busyShare(before: CpuTimes | null, after: CpuTimes | null): number {
  if (!before || !after) return 0;
  const total = after.total - before.total;
  return total > 0 ? Math.max(0, total - (after.idle - before.idle) - (after.steal - before.steal)) / total : 0;
}
