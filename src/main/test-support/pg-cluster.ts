import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPg } from '../relay/store/postgres/pg-client.js';

/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temp folder, a unix socket there and no
 * TCP at all, removed by destroy(). As root (CI) the server runs as the `postgres` user, which
 * initdb insists on. Either a test's own (startPgCluster, fsync on) or the run's shared one
 * (runPgCluster, fsync off).
 */
export interface PgCluster {
  /** the folder holding the data directory and the socket */
  dir: string;
  /**
   * A new, empty database, or a copy of `template` (the URL of another of this cluster's
   * databases, which nobody may be connected to); returns its connection URL.
   */
  createDatabase(template?: string): Promise<string>;
  /** Stops the server (fast shutdown) and starts it again on the same data. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops the server and removes everything (on the run-wide server: drops this file's databases). */
  destroy(): void | Promise<void>;
}

/** Where PostgreSQL's server programs are: PATH first, then Debian's versioned folders, newest first. */
export function findPgBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export const pgMissing = (): string | null =>
  findPgBin() === null
    ? 'PostgreSQL server programs (initdb, pg_ctl) are not installed; `apt-get install postgresql` to run the cluster tests'
    : null;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The settings a test server runs with; `durable: false` trades crash safety for speed (see startPgCluster). */
function serverOptions(dir: string, durable: boolean, maxConnections: number): string {
  const durability = durable ? ['fsync=on'] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
  return [
    `listen_addresses=''`,
    `unix_socket_directories=${dir}`,
    ...durability,
    `max_connections=${maxConnections}`,
    'shared_buffers=32MB',
  ]
    .map((o) => `-c ${o}`)
    .join(' ');
}

interface Server {
  dir: string;
  data: string;
  bin: string;
  run(program: string, args: string[]): void;
  start(): void;
  urlFor(db: string): string;
}

/** initdb in `dir` (which must exist) and start the server there. */
function initServer(dir: string, durable: boolean, maxConnections: number): Server {
  const bin = findPgBin();
  if (!bin) throw new Error(pgMissing()!);
  const data = join(dir, 'data');
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (program: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${program} failed: ${r.stderr || r.stdout}`);
  };
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      serverOptions(dir, durable, maxConnections),
      '-w',
      '-t',
      '30',
      '-l',
      join(dir, 'log'),
      'start',
    ]);
  start();
  return {
    dir,
    data,
    bin,
    run,
    start,
    urlFor: (db) => `postgres://${user}@localhost/${db}?host=${encodeURIComponent(dir)}`,
  };
}

function stopServer(bin: string, data: string): void {
  const stop = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
  spawnSync(asRoot ? 'runuser' : stop[0], asRoot ? ['-u', 'postgres', '--', ...stop] : stop.slice(1));
}

async function createDatabaseOn(server: Server, template?: string): Promise<string> {
  // pid and random: a forked worker may run several files, each counting from one
  const name = `relay_${process.pid}_${randomBytes(4).toString('hex')}`;
  // only a name this file made goes into the statement
  const source = template === undefined ? null : new URL(template).pathname.slice(1);
  if (source !== null && !/^relay_\d+_[0-9a-f]{8}$/.test(source))
    throw new Error(`not a database of this cluster: ${template}`);
  const sql = openPg(server.urlFor('postgres'), { max: 1 });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}${source === null ? '' : ` TEMPLATE ${source}`}`);
  } finally {
    await sql.end();
  }
  return name;
}

/**
 * A cluster of the test's own, removed by destroy() or when the process exits. fsync is on
 * (`durable`, the default): the durability and crash tests mean it, and a test that stops the
 * server mid-write needs one nobody else is using.
 */
export function startPgCluster(opts: { durable?: boolean } = {}): PgCluster {
  const dir = mkdtempSync(join(tmpdir(), 'relay-pg-'));
  const server = initServer(dir, opts.durable ?? true, 200);
  // A test process that ends without destroy() (a crash, a forgotten afterAll) still removes it.
  const destroy = () => {
    process.off('exit', destroy);
    stopServer(server.bin, server.data);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', destroy);
  return {
    dir,
    createDatabase: async (template) => server.urlFor(await createDatabaseOn(server, template)),
    stop(mode = 'fast') {
      server.run('pg_ctl', ['-D', server.data, '-m', mode, '-w', 'stop']);
    },
    start: server.start,
    destroy,
  };
}

// ---------------------------------------------------------------------------------------------
// One server for a whole vitest run (src/main/test-support/vitest-global-setup.ts makes the
// folder and stops the server at the end). The first file that asks starts it, under a lock
// (mkdir is atomic), so a run that touches no PostgreSQL test pays nothing; every file gets its
// own databases, dropped when the file is done. fsync is off: an initdb per file and a
// CREATE DATABASE per test relay with fsync on were most of the cluster suite's time.

const RUN_MAX_CONNECTIONS = 400;
const RUN_START_TIMEOUT_MS = 120_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Waits for the run's server, starting it if this process is the first to ask. */
function runServer(runDir: string): Server {
  const dir = join(runDir, 'pg');
  const ready = join(runDir, 'ready');
  const failed = join(runDir, 'failed');
  let mine = false;
  try {
    mkdirSync(join(runDir, 'lock'));
    mine = true;
  } catch {
    // another process is starting it
  }
  if (mine) {
    try {
      mkdirSync(dir);
      const server = initServer(dir, false, RUN_MAX_CONNECTIONS);
      writeFileSync(ready, JSON.stringify({ bin: server.bin }));
      return server;
    } catch (e) {
      writeFileSync(failed, String((e as Error).message));
      throw e;
    }
  }
  const deadline = Date.now() + RUN_START_TIMEOUT_MS;
  while (!existsSync(ready)) {
    if (existsSync(failed))
      throw new Error(`the run's PostgreSQL server did not start: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline)
      throw new Error(`the run's PostgreSQL server was not ready within ${RUN_START_TIMEOUT_MS} ms (${runDir})`);
    sleepSync(50);
  }
  const { bin } = JSON.parse(readFileSync(ready, 'utf8')) as { bin: string };
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  const started = () => {
    throw new Error('the run-wide PostgreSQL server was started by another process');
  };
  return {
    dir,
    data: join(dir, 'data'),
    bin,
    run: started,
    start: started,
    urlFor: (db) => `postgres://${user}@localhost/${db}?host=${encodeURIComponent(dir)}`,
  };
}

function unshared(): never {
  throw new Error(
    'the run-wide PostgreSQL server is shared by every test file: a test that stops it needs startPgCluster(), a cluster of its own',
  );
}

/** This file's handle on the run's server: its databases are its own, the server is not (no stop/start). */
export function runPgCluster(runDir: string): PgCluster {
  const server = runServer(runDir);
  const mine: string[] = [];
  return {
    dir: server.dir,
    async createDatabase(template) {
      const name = await createDatabaseOn(server, template);
      mine.push(name);
      return server.urlFor(name);
    },
    stop: unshared,
    start: unshared,
    async destroy() {
      const names = mine.splice(0);
      if (names.length === 0) return;
      const sql = openPg(server.urlFor('postgres'), { max: 1 });
      try {
        for (const name of names) await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch {
        // only disk space: the run's end removes the whole server
      } finally {
        await sql.end().catch(() => undefined);
      }
    },
  };
}

/** The global set-up's end: stops the run's server if a file started it, and removes its folder. */
export function stopRunPgCluster(runDir: string): void {
  const ready = join(runDir, 'ready');
  if (existsSync(ready)) {
    const { bin } = JSON.parse(readFileSync(ready, 'utf8')) as { bin: string };
    stopServer(bin, join(runDir, 'pg', 'data'));
  }
  rmSync(runDir, { recursive: true, force: true });
}
