import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPg } from '../relay/store/pg-client.js';

/**
 * A throw-away PostgreSQL cluster for tests: initdb in a temp folder, a unix socket there and no
 * TCP at all, fsync on (the durability tests mean it), removed by stop(). As root (CI) the
 * server runs as the `postgres` user, which initdb insists on.
 */
export interface PgCluster {
  /** the folder holding the data directory and the socket */
  dir: string;
  /** A new, empty database; returns its connection URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (fast shutdown) and starts it again on the same data. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops the server and removes everything. */
  destroy(): void;
}

/** Where PostgreSQL's server programs are: PATH first, then Debian's versioned folders, newest first. */
export function findPgBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export const pgMissing = (): string | null =>
  findPgBin() === null ? 'PostgreSQL server programs (initdb, pg_ctl) are not installed; `apt-get install postgresql` to run the cluster tests' : null;

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export function startPgCluster(): PgCluster {
  const bin = findPgBin();
  if (!bin) throw new Error(pgMissing()!);
  const dir = mkdtempSync(join(tmpdir(), 'relay-pg-'));
  const data = join(dir, 'data');
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (program: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${program} failed: ${r.stderr || r.stdout}`);
  };
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync']);
  const options = [`-c listen_addresses=''`, `-c unix_socket_directories=${dir}`, '-c fsync=on', '-c max_connections=200', '-c shared_buffers=32MB'].join(' ');
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '30', '-l', join(dir, 'log'), 'start']);
  start();
  const admin = () => openPg(urlFor('postgres'), { max: 1 });
  let n = 0;
  function urlFor(db: string) {
    return `postgres://${user}@localhost/${db}?host=${encodeURIComponent(dir)}`;
  }
  // A test process that ends without destroy() (a crash, a forgotten afterAll) still removes it.
  const destroy = () => {
    process.off('exit', destroy);
    const stop = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
    spawnSync(asRoot ? 'runuser' : stop[0], asRoot ? ['-u', 'postgres', '--', ...stop] : stop.slice(1));
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', destroy);
  return {
    dir,
    async createDatabase() {
      const name = `relay_${process.pid}_${++n}`;
      const sql = admin();
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await sql.end();
      }
      return urlFor(name);
    },
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    },
    start,
    destroy,
  };
}
