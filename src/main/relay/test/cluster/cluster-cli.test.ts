import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs, startTs, type Child } from '../../../test-support/child-process.js';
import { parseInvocation, UsageError } from '../../cli-args.js';
import { sharedCluster } from '../../store/test/backends.js';
import { pgMissing } from '../../../test-support/pg-cluster.js';
import { call, signIn } from '../harness.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const READY = /^relay listening on (\S+)$/;
const URL_A = 'postgres://relay@db.internal:5432/relay';

describe('cluster flags', () => {
  it('takes --database and --node-id, or RELAY_DATABASE_URL; without either it stays on SQLite', () => {
    expect(parseInvocation(['--database', URL_A, '--node-id', 'node-1.eu'])).toMatchObject({
      mode: 'serve',
      options: { database: URL_A, nodeId: 'node-1.eu' },
    });
    expect(parseInvocation([], { RELAY_DATABASE_URL: URL_A })).toMatchObject({
      options: { database: URL_A, nodeId: null },
    });
    expect(parseInvocation(['--database', 'postgresql://x/y'], { RELAY_DATABASE_URL: URL_A })).toMatchObject({
      options: { database: 'postgresql://x/y' },
    });
    expect(parseInvocation([], { RELAY_DATABASE_URL: '' })).toMatchObject({ options: { database: null } });
    expect(parseInvocation(['admin', '--database', URL_A, 'stats'])).toMatchObject({
      mode: 'admin',
      options: { database: URL_A, command: { kind: 'stats' } },
    });
  });

  it('refuses what is not a PostgreSQL URL or a node name, with the flag named', () => {
    expect(() => parseInvocation(['--database', 'mysql://x/y'])).toThrow(/--database: expected a postgres:\/\/ URL/);
    expect(() => parseInvocation(['--database', 'not a url'])).toThrow(UsageError);
    expect(() => parseInvocation(['--database', URL_A, '--node-id', 'a b'])).toThrow(/--node-id/);
  });
});

const missing = pgMissing();
describe.skipIf(missing !== null)(`the relay process on PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const children: Child[] = [];
  afterAll(() => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
    sharedCluster().destroy();
  });

  it('serves with --database, reports the database on /healthz, and the admin commands act on the same database', async () => {
    const url = await sharedCluster().createDatabase();
    const node = await startTs(
      CLI,
      ['--port', '0', '--database', url, '--node-id', 'cli', '--rate-limit', '0'],
      READY,
      90_000,
    );
    children.push(node);
    expect((await call(node.ready, 'GET', '/healthz')).body).toEqual({ ok: true, database: 'reachable' });
    const u = await signIn(node.ready);
    const granted = await runTs(CLI, ['admin', '--database', url, 'grant', u.address, 'developer-api']);
    expect(granted).toMatchObject({ code: 0, stdout: `${u.address} granted developer-api\n` });
    expect((await call(node.ready, 'GET', '/api/v1/me', { auth: u.apiKey })).body.entitlements).toEqual([
      'developer-api',
    ]);
    const stats = await runTs(CLI, ['admin', '--database', url, 'stats']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ accounts: 1, devices: 1, apiKeys: 1 });
    expect(await node.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
