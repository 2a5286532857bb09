/**
 * `npm run web -- --new-link`: a second command asks the web-mode server of the same data
 * folder for a new one-time link, which also ends the session of whoever used the old one.
 *
 * The running server writes `web-control.json` into the data folder (the profile's own, which
 * the profile lock makes 0700): its port and a random bearer token, in a file created 0600.
 * Whoever can read that file is the profile's owner, who can read the vault too; anyone else on
 * the machine can reach the port but not the token. The command posts the token to
 * `/control/new-link` on 127.0.0.1 (web-server.ts) and gets the link back. A file and the
 * server's own port rather than a socket file or named pipe: one mechanism on every platform,
 * and nothing more that listens.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

export const CONTROL_FILE = 'web-control.json';

interface ControlFile {
  v: 1;
  pid: number;
  port: number;
  token: string;
}

export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Writes the control file for a server on `port`; the function returned removes it if still ours. */
export function writeControlFile(dataDir: string, port: number, token: string): () => void {
  const path = join(dataDir, CONTROL_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  const body: ControlFile = { v: 1, pid: process.pid, port, token };
  rmSync(tmp, { force: true });
  // 0600 from the start: the token is never readable by others, even briefly
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(body));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return () => {
    if (readControlFile(dataDir)?.token === token) rmSync(path, { force: true });
  };
}

function readControlFile(dataDir: string): ControlFile | null {
  try {
    const c = JSON.parse(readFileSync(join(dataDir, CONTROL_FILE), 'utf8')) as Partial<ControlFile>;
    return c?.v === 1 && Number.isInteger(c.port) && typeof c.token === 'string' ? (c as ControlFile) : null;
  } catch {
    return null;
  }
}

export class NewLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NewLinkError';
  }
}

/**
 * Asks the web-mode server of `dataDir` for a new link. The file must be ours and writable by
 * no one else: a file someone else could write might send the link's reader to their server.
 */
export async function requestNewLink(dataDir: string): Promise<string> {
  const notRunning = new NewLinkError(`no web-mode server is running for ${dataDir}`);
  const path = join(dataDir, CONTROL_FILE);
  let st;
  try {
    st = lstatSync(path);
  } catch {
    throw notRunning;
  }
  const uid = process.getuid?.();
  if (!st.isFile() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)))
    throw new NewLinkError(`${path} is not this user's own file; not using it`);
  const control = readControlFile(dataDir);
  if (!control) throw notRunning;
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: control.port,
        method: 'POST',
        path: '/control/new-link',
        headers: { authorization: `Bearer ${control.token}` },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  }).catch(() => {
    throw notRunning;
  });
  let openUrl: unknown;
  try {
    openUrl = (JSON.parse(answer.body) as { openUrl?: unknown }).openUrl;
  } catch {
    openUrl = undefined;
  }
  const expected = `http://127.0.0.1:${control.port}/#code=`;
  if (answer.status !== 200 || typeof openUrl !== 'string' || !openUrl.startsWith(expected))
    throw new NewLinkError(`the web-mode server for ${dataDir} refused a new link (HTTP ${answer.status})`);
  return openUrl;
}
