/** CPU time of processes, read from /proc (Linux), for the bench's figures of where time went. */
import { readdirSync, readFileSync } from 'node:fs';

/** user + system CPU seconds of a process so far, from /proc (clock ticks at 100 Hz on Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of every PostgreSQL process so far (the bench's throw-away server is the only
 * one here: its postmaster and the nodes' backends): where the cluster's time goes that the
 * relays' own figure does not show. A process that ended meanwhile drops out of the sum.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres') total += cpuSeconds(Number(name));
    } catch {
      // gone between the listing and the read
    }
  }
  return total;
}
