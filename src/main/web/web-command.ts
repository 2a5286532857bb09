/**
 * `npm run web -- [--port N] [--data DIR] [--no-open]`: the app in a browser tab. Prints one
 * line, `open http://127.0.0.1:<port>/#code=…`, whose one-time code the first page load
 * exchanges for the session's secret (see web-server.ts). `--new-link` asks the server already
 * running for that data folder for a new link instead, ending the old one's session
 * (web-control.ts).
 * Entries (cli.ts, start.ts) call main(); this module never runs on import, because in a bundle
 * every module shares its entry's `import.meta.url`.
 */
import { parseArgs } from 'node:util';
import { openInBrowser } from './open-link.js';
import { NewLinkError, requestNewLink } from './web-control.js';
import { defaultDataDir, runWebMode } from './web-mode.js';

/** A shutdown that takes longer than this means something hangs; give up with exit 1. */
const SHUTDOWN_GRACE_MS = 20_000;

const USAGE = `Usage: npm run web -- [--port <n>] [--data <dir>] [--no-open]
       npm run web -- --new-link [--data <dir>] [--no-open]
  --port <n>    port on 127.0.0.1 (default 5199; 0 picks a free one)
  --data <dir>  profile folder (default: the desktop app's, ${defaultDataDir()})
  --no-open     do not launch a browser; just print the link
  --new-link    a new one-time link from the web mode already running for that folder; the
                session of whoever used the old link ends
`;

export async function main(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        'no-open': { type: 'boolean' },
        'new-link': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`web: ${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values['new-link']) return newLink(values.data ?? defaultDataDir(), !values['no-open']);
  const port = values.port === undefined ? 5199 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`web: --port must be 0-65535\n\n${USAGE}`);
    process.exit(2);
  }
  // Ctrl-C reaches the whole process group, the relay child too, and a service manager may
  // follow with SIGTERM: the first signal shuts down in order (a signal while starting, once
  // started), a second one hurries it (the relay child is killed rather than waited for), and
  // either way it ends with the port free and one line.
  let running: Awaited<ReturnType<typeof runWebMode>> | undefined;
  let stopping = false;
  const close = (r: NonNullable<typeof running>) =>
    r.close().then(
      () => {
        process.stdout.write('web: stopped\n');
        process.exit(0);
      },
      (e: Error) => {
        process.stderr.write(`web: could not stop cleanly: ${e.message}\n`);
        process.exit(1);
      },
    );
  const stop = () => {
    if (stopping) {
      if (running) running.hurry();
      else process.exit(1);
      return;
    }
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`web: shutdown did not finish within ${SHUTDOWN_GRACE_MS / 1000} s, exiting\n`);
      running?.hurry();
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    if (running) void close(running);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    running = await runWebMode({
      port,
      dataDir: values.data ?? defaultDataDir(),
      open: !values['no-open'],
      // the link as soon as the page can load; the services finish starting meanwhile
      onListening: (server) => {
        process.stdout.write(`open ${server.openUrl}\n`);
        if (!values['no-open']) openInBrowser(server.openUrl);
      },
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'EADDRINUSE' ? `port ${port} is in use (try --port 0)` : err.message;
    process.stderr.write(`web: could not start: ${why}\n`);
    process.exit(1);
  }

  if (stopping) void close(running);
}

async function newLink(dataDir: string, open: boolean): Promise<void> {
  let url: string;
  try {
    url = await requestNewLink(dataDir);
  } catch (e) {
    process.stderr.write(`web: ${e instanceof NewLinkError ? e.message : (e as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`open ${url}\n`);
  if (open) openInBrowser(url);
}
