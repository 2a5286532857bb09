/**
 * A reload (SIGHUP): the settings are read again from their sources and the limits among them
 * put in force on the running relay, through its live config, so no connection is dropped. What
 * changed is logged; a change that needs a restart is logged and left alone; settings that
 * cannot be read (a file that does not parse, an unknown key, a bad value) are refused as a
 * whole and the running values stay.
 */
import type { Logger } from 'pino';
import type { LogLevel, ServeOptions } from '../cli-args.js';
import { limitsOf, type LiveConfig } from './live-config.js';

/** Settings a running relay keeps until it restarts, by the flag that sets them. */
const FIXED: Array<[flag: string, read: (o: ServeOptions) => unknown]> = [
  ['host', (o) => o.host],
  ['port', (o) => o.port],
  ['data', (o) => o.dataDir],
  ['database', (o) => o.database ?? null],
  ['node-id', (o) => o.nodeId ?? null],
  ['lan', (o) => o.lan],
  ['stake-currency', (o) => o.stakeCurrency],
  ['stake-rpc', (o) => o.stake ?? null],
  ['chain-id', (o) => o.chainId],
  ['base-url', (o) => o.baseUrl],
  ['allow-host', (o) => o.allowedHosts],
  ['trust-proxy', (o) => o.trustProxy],
  ['blob-dir', (o) => o.blobDir ?? null],
  ['log-format', (o) => o.logFormat ?? null],
  ['metrics-port', (o) => o.metrics ?? null],
];

export interface ReloadOutcome {
  applied: boolean;
  /** what changed, by RelayConfig's names, and the log level */
  changed: Record<string, { from: number | string; to: number | string }>;
  /** flags whose new value waits for a restart */
  restartNeeded: string[];
}

export function reloadConfig(target: {
  live: LiveConfig;
  log: Logger;
  /** the options the process started with */
  started: ServeOptions;
  /** reads the settings again; throws when they cannot be read */
  read: () => ServeOptions;
}): ReloadOutcome {
  const { live, log, started } = target;
  let next: ServeOptions;
  try {
    next = target.read();
  } catch (err) {
    log.error({ reason: (err as Error).message }, 'config reload refused; the running values stay');
    return { applied: false, changed: {}, restartNeeded: [] };
  }
  const { changed, refused } = live.apply(limitsOf(next));
  const report: ReloadOutcome['changed'] = {};
  for (const c of changed) report[c.key] = { from: c.from, to: c.to };
  const level: LogLevel = next.logLevel ?? 'info';
  if (log.level !== level) {
    report.logLevel = { from: log.level, to: level };
    log.level = level;
  }
  const restartNeeded = FIXED.filter(([, read]) => JSON.stringify(read(next)) !== JSON.stringify(read(started))).map(
    ([flag]) => flag,
  );
  for (const r of refused) log.warn({ setting: r.key, from: r.from, to: r.to }, `config reload: ${r.why}`);
  if (restartNeeded.length > 0)
    log.warn({ settings: restartNeeded }, 'config reload: these settings changed and take effect at the next start');
  log.info(
    { changed: report },
    Object.keys(report).length > 0 ? 'config reloaded' : 'config reloaded; nothing changed',
  );
  return { applied: true, changed: report, restartNeeded };
}
