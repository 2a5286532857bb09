/**
 * Where the relay's log lines go: stdout, as JSON or (`--log-format pretty`) through pino-pretty,
 * behind a gate that holds them until the ready line is out. Tools read the first stdout line
 * for the URL, and the store's migrations and the TLS certificate are logged before the relay
 * listens, so those lines wait and follow the ready line.
 */
import type { DestinationStream } from 'pino';
import type { LogFormat } from '../cli-args.js';

export interface LogOutput {
  /** what the logger writes to */
  destination: DestinationStream;
  /** Runs `first` (which writes the ready line), then lets the held lines and all later ones through. */
  open(first: () => void): void;
}

export async function logOutput(
  format: LogFormat | null,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): Promise<LogOutput> {
  let sink = write;
  if (format === 'pretty') {
    // loaded only when asked for: most relays never pay for it
    const mod = await import('pino-pretty');
    // a CommonJS package: bundled, its named exports sit on `default`
    const prettyFactory = mod.prettyFactory ?? mod.default.prettyFactory;
    const prettify = prettyFactory({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:standard',
      // a request on one line: "request GET /api/v1/me 401 3.2 ms"
      messageFormat: '{msg}{if req.method} {req.method} {req.route} {res.status} {durationMs} ms{end}',
      ignore: 'pid,hostname,req,res,reqId,durationMs',
    });
    sink = (line) => write(prettify(line));
  }
  let held: string[] | null = [];
  return {
    destination: {
      write(line: string) {
        if (held) held.push(line);
        else sink(line);
      },
    },
    open(first) {
      if (!held) return;
      const waiting = held;
      held = null;
      first();
      for (const line of waiting) sink(line);
    },
  };
}
