/**
 * The headless relay: `npm run relay -- [options]` serves, `npm run relay -- admin ...` runs
 * an operator command. Other tools drive this entry, so its output is a contract: the first
 * stdout line is `relay listening on <url>`, a forked child also posts
 * `{ type: 'relay-started', url }`, and exit codes are 0 (ok), 1 (failure), 2 (bad arguments).
 */
import { UsageError, USAGE, parseInvocation, type ServeOptions, type AdminOptions } from './cli-args.js';
import type { RunningRelay } from './server.js';

/** A graceful close that takes longer than this means something hangs; give up with exit 1. */
const SHUTDOWN_GRACE_MS = 15_000;

async function main(argv: string[]): Promise<void> {
  let invocation;
  try {
    invocation = parseInvocation(argv, process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const admin = argv[0] === 'admin';
    process.stderr.write(`relay${admin ? ' admin' : ''}: ${err.message}\n\n${USAGE}`);
    // docs/protocol.md §16: operator commands fail with 1, whatever the reason
    process.exit(admin ? 1 : 2);
  }
  switch (invocation.mode) {
    case 'help':
      process.stdout.write(USAGE);
      return;
    case 'admin':
      return admin(invocation.options);
    case 'serve':
      return serve(invocation.options);
  }
}

async function admin(opts: AdminOptions): Promise<void> {
  // loaded here so that --help and argument errors do not pay for SQLite
  const { runAdmin, AdminError } = await import('./admin.js');
  try {
    process.stdout.write(`${await runAdmin(opts)}\n`);
  } catch (err) {
    if (!(err instanceof AdminError)) throw err;
    process.stderr.write(`relay admin: ${err.message}\n`);
    process.exit(1);
  }
}

async function serve(opts: ServeOptions): Promise<void> {
  let relay: RunningRelay | undefined;
  let stopping = false;
  const closeAndExit = (r: RunningRelay) =>
    r.close().then(
      () => process.exit(0),
      (err: unknown) => {
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
  // An embedded relay must not outlive the process that forked it, even one that went away
  // while this relay was still starting (it would keep its port with no one to stop it).
  if (process.send) {
    process.on('disconnect', () => stop('parent process went away'));
    if (!process.connected) stop('parent process went away');
  }

  const { startRelayServer } = await import('./server.js');
  try {
    relay = await startRelayServer(opts);
  } catch (err) {
    process.stderr.write(`relay: could not start: ${describeStartError(err, opts)}\n`);
    process.exit(1);
  }
  if (stopping) {
    void closeAndExit(relay);
    return;
  }

  // the ready line comes first so that a tool reading one line gets the URL
  process.stdout.write(`relay listening on ${relay.url}\n`);
  if (relay.lan) {
    const { certificate, urls } = relay.lan;
    const lines = [
      certificate.created
        ? `TLS certificate created in ${opts.dataDir}${certificate.replacedBecause ? ` (replacing the old one: ${certificate.replacedBecause})` : ''}`
        : `TLS certificate reused from ${opts.dataDir}`,
      `TLS certificate SHA-256 fingerprint: ${certificate.fingerprint256}`,
      `TLS public-key pin (curl --pinnedpubkey): sha256//${certificate.publicKeyPin}`,
      `certificate valid until ${certificate.validTo.toISOString()}`,
      'reach this relay at:',
      ...urls.map((u) => `  ${u}`),
      'clients must pin the fingerprint above; the certificate is self-signed',
      'sign-in messages name the URL each client reached the relay at',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (process.send) {
    process.send({
      type: 'relay-started',
      url: relay.url,
      baseUrl: relay.config.baseUrl,
      fingerprint256: relay.lan?.certificate.fingerprint256 ?? null,
    });
  }
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
