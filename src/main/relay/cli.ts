/**
 * The headless relay: `npm run relay -- [options]` serves, `npm run relay -- admin ...` runs
 * an operator command. Other tools drive this entry, so its output is a contract: the first
 * stdout line is `relay listening on <url>` (a JSON line naming `url` with `--log-format json`),
 * the log's event lines follow it, a forked child (or an Electron utility process,
 * through `process.parentPort`) also posts `{ type: 'relay-started', url }`,
 * and exit codes are 0 (ok), 1 (failure), 2 (bad arguments). SIGHUP reloads the limits.
 */
import type { Logger } from 'pino';
import {
  UsageError,
  USAGE,
  parseInvocation,
  type AdminOptions,
  type DataCommand,
  type ServeOptions,
} from './cli-args.js';
import { relayLogger } from './ops/logger.js';
import { logOutput, type LogOutput } from './ops/log-output.js';
import { adminAction } from './ops/admin-log.js';
import { bannerLines } from './ops/banner.js';
import type { RunningRelay } from './server.js';

/** A graceful close that takes longer than this means something hangs; give up with exit 1. */
const SHUTDOWN_GRACE_MS = 15_000;

async function main(argv: string[]): Promise<void> {
  let invocation;
  try {
    invocation = parseInvocation(argv, process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const sub = ['admin', 'backup', 'restore'].includes(argv[0]) ? ` ${argv[0]}` : '';
    process.stderr.write(`relay${sub}: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  switch (invocation.mode) {
    case 'help':
      process.stdout.write(USAGE);
      return;
    case 'admin':
      return admin(invocation.options);
    case 'data':
      return dataCommand(invocation.command);
    case 'serve':
      return serve(invocation.options, argv);
  }
}

async function admin(opts: AdminOptions): Promise<void> {
  // loaded here so that --help and argument errors do not pay for SQLite
  const { runAdmin, AdminError } = await import('./admin.js');
  // stdout is the command's answer (`stats` prints JSON); the audit line goes to stderr
  const log = relayLogger({ level: 'info', destination: { write: (line) => void process.stderr.write(line) } });
  try {
    const { answer, via } = await runAdmin(opts);
    log.info(adminAction(opts, 'done', via), 'admin action');
    process.stdout.write(`${answer}\n`);
  } catch (err) {
    if (!(err instanceof AdminError)) throw err;
    log.warn({ ...adminAction(opts, 'refused'), reason: err.message }, 'admin action');
    process.stderr.write(`relay admin: ${err.message}\n`);
    process.exit(1);
  }
}

/** backup and restore: one JSON object on stdout, a refusal on stderr with exit 1. */
async function dataCommand(command: DataCommand): Promise<void> {
  const { backupRelay, restoreRelay, BackupError } = await import('./backup/relay-backup.js');
  try {
    const answer = command.kind === 'backup' ? await backupRelay(command) : restoreRelay(command);
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    process.stderr.write(`relay ${command.kind}: ${err.message}\n`);
    process.exit(1);
  }
}

async function serve(opts: ServeOptions, argv: string[]): Promise<void> {
  const output: LogOutput = await logOutput(opts.logFormat ?? null);
  const log: Logger = relayLogger({ level: opts.logLevel ?? 'info', destination: output.destination });
  let relay: RunningRelay | undefined;
  let stopping = false;
  const closeAndExit = (r: RunningRelay) =>
    r.close().then(
      () => {
        log.info('relay stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'error while closing');
        process.stderr.write(`relay: error while closing: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      },
    );
  const stop = (why: string) => {
    if (stopping) {
      process.stderr.write(`relay: ${why} during shutdown, exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    // stopped before the ready line: nothing is held for it any more
    if (!relay) output.open(() => undefined);
    log.info({ reason: why }, 'relay stopping: finishing requests in flight');
    process.stderr.write(`relay: ${why}, finishing requests in flight and closing\n`);
    setTimeout(() => {
      process.stderr.write(`relay: shutdown did not finish within ${SHUTDOWN_GRACE_MS / 1000} s, exiting\n`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // a signal during start-up is honoured once the store is open, so it is closed cleanly
    if (relay) void closeAndExit(relay);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Registered before start-up, since SIGHUP's default is to end the process.
  process.on('SIGHUP', () => {
    if (!relay || stopping) return;
    relay.reload(() => {
      const again = parseInvocation(argv, process.env);
      if (again.mode !== 'serve') throw new UsageError('the arguments no longer name a relay to serve');
      return again.options;
    });
  });
  // An embedded relay must not outlive the process that forked it, even one that went away
  // while this relay was still starting (it would keep its port with no one to stop it).
  if (process.send) {
    process.on('disconnect', () => stop('parent process went away'));
    if (!process.connected) stop('parent process went away');
  }

  const { startRelayServer } = await import('./server.js');
  try {
    relay = await startRelayServer(opts, { logger: log });
  } catch (err) {
    // what was logged before the failure (migrations, the certificate) comes out now
    output.open(() => undefined);
    log.error({ err }, 'relay could not start');
    process.stderr.write(`relay: could not start: ${describeStartError(err, opts)}\n`);
    process.exit(1);
  }
  if (stopping) {
    void closeAndExit(relay);
    return;
  }

  // The ready line comes first so that a tool reading one line gets the URL; the log lines
  // held until now follow it.
  const running = relay;
  output.open(() => {
    if (opts.logFormat === 'json') {
      const cert = running.lan?.certificate;
      log.info(
        {
          url: running.url,
          ...(cert
            ? {
                pin: cert.pin,
                pinnedPubkey: `sha256//${cert.publicKeyPin}`,
                fingerprint256: cert.fingerprint256,
                urls: running.lan!.urls,
              }
            : {}),
        },
        `relay listening on ${running.url}`,
      );
    } else {
      process.stdout.write(`${bannerLines(running, opts.dataDir).join('\n')}\n`);
    }
  });
  const started = {
    type: 'relay-started',
    url: relay.url,
    baseUrl: relay.config.baseUrl,
    fingerprint256: relay.lan?.certificate.fingerprint256 ?? null,
    pin: relay.lan?.certificate.pin ?? null,
  };
  const parentPort = (process as { parentPort?: { postMessage(message: unknown): void } }).parentPort;
  if (process.send) {
    process.send(started);
  } else if (parentPort) {
    parentPort.postMessage(started);
    stopWhenOrphaned(stop);
  }
}

/**
 * A utility process has no 'disconnect': Electron ends it with the app, and should the app die
 * without doing so, the parent process id changes (the orphan is handed to another process).
 */
function stopWhenOrphaned(stop: (why: string) => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop('parent process went away');
  }, 2000);
  timer.unref();
}

function describeStartError(err: unknown, opts: ServeOptions): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') return `${opts.host}:${opts.port} is already in use`;
  if (e?.code === 'EADDRNOTAVAIL') return `${opts.host} is not an address of this machine`;
  if (e?.code === 'EACCES') return `permission denied (${e.message})`;
  return e instanceof Error ? e.message : String(err);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`relay: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
