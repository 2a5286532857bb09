/**
 * The running relay's door for `relay admin`: HTTP on a Unix socket in the data folder (a named
 * pipe on Windows), readable and writable by the relay's own user only (0600, in a 0700 folder),
 * so the file's rights are the credential and no token has to be kept. A command carried out here
 * goes through the relay's own store, whose revocations reach held pulls and, on a cluster, every
 * node at once; the database alone would leave caches and held pulls behind.
 */
import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { adminTarget } from '../ops/admin-log.js';
import { AdminError, executeAdmin, type AdminContext, type StoreCommand } from './admin-commands.js';
import type { RelayStore } from '../store/store.js';

export const ADMIN_SOCKET = 'admin.sock';
const MAX_BODY = 16 * 1024;

export function adminSocketPath(dataDir: string): string {
  if (process.platform !== 'win32') return join(dataDir, ADMIN_SOCKET);
  const id = createHash('sha256').update(dataDir.toLowerCase()).digest('hex').slice(0, 24);
  return `\\\\.\\pipe\\relay-admin-${id}`;
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/** Listens on the data folder's admin socket; a socket file left by a relay that died is replaced. */
export async function startAdminSocket(
  dataDir: string,
  store: RelayStore,
  ctx: AdminContext,
  log?: Logger,
): Promise<AdminSocket> {
  const path = adminSocketPath(dataDir);
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/command') return answer(404, { error: 'unknown route' });
    void readJson(req).then(
      async (body) => {
        const command = (body as { command?: StoreCommand } | null)?.command;
        if (!command || typeof command.kind !== 'string') return answer(400, { error: 'no command' });
        try {
          const output = await executeAdmin(store, command, ctx);
          log?.info({ command: command.kind, ...adminTarget(command), outcome: 'done' }, 'admin action');
          answer(200, { output });
        } catch (err) {
          const refused = err instanceof AdminError;
          log?.[refused ? 'warn' : 'error'](
            { command: command.kind, ...adminTarget(command), outcome: 'refused', reason: (err as Error).message },
            'admin action',
          );
          answer(refused ? 422 : 500, { error: (err as Error).message });
        }
      },
      () => answer(400, { error: 'not a JSON command' }),
    );
  });
  if (process.platform !== 'win32') rmSync(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Sends a command to the relay serving `dataDir`: its output, or null when none listens there
 * (no socket, or one a stopped relay left). A refusal by the relay is an AdminError.
 */
export function sendToRunningRelay(dataDir: string, command: StoreCommand): Promise<string | null> {
  const body = JSON.stringify({ command });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: adminSocketPath(dataDir),
        path: '/command',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        readJson(res).then((answer) => {
          const a = answer as { output?: string; error?: string };
          if (res.statusCode === 200 && typeof a.output === 'string') resolve(a.output);
          else reject(new AdminError(a.error ?? `the relay answered ${res.statusCode}`));
        }, reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(null);
      else reject(new AdminError(`cannot reach the relay's admin socket: ${err.message}`));
    });
    req.end(body);
  });
}

function readJson(stream: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) stream.destroy(new Error('too large'));
      else chunks.push(c);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}
