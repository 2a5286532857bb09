/**
 * Where the serve settings come from (docs/operations.md, Configuration): flags over RELAY_*
 * variables over the config file over defaults, the file in TOML or JSON with unknown keys
 * refused by name, and relative paths from where the user ran the command (INIT_CWD under npm).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../config.js';
import { parseInvocation, UsageError, type ServeOptions } from '../../cli-args.js';
import { SERVE_SETTINGS, envName, type SettingName } from '../serve-flags.js';
import { userDirectory } from '../user-directory.js';

const CWD = '/srv/relay-package';

/** parseInvocation over an in-memory file system. */
function serve(argv: string[], env: Record<string, string> = {}, files: Record<string, string> = {}): ServeOptions {
  const inv = parseInvocation(argv, env, {
    cwd: CWD,
    readText: (path) => {
      if (!(path in files)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return files[path];
    },
  });
  if (inv.mode !== 'serve') throw new Error(`not serve: ${inv.mode}`);
  return inv.options;
}

describe('serve settings', () => {
  it('take flags over variables over the file over defaults, setting by setting', () => {
    const files = {
      '/etc/relay/relay.toml': [
        'rate-limit = 10',
        'max-queued = 11',
        'max-queued-mib = 12',
        'retention-days = 13',
        'allow-host = ["file.example"]',
        'trust-proxy = true',
      ].join('\n'),
    };
    const env = {
      RELAY_CONFIG: '/etc/relay/relay.toml',
      RELAY_MAX_QUEUED: '21',
      RELAY_MAX_QUEUED_MIB: '22',
      RELAY_LAN: '',
    };
    const o = serve(['--max-queued-mib', '32'], env, files);
    expect(o.rateLimit).toBe(10); // file
    expect(o.maxQueued).toBe(21); // environment over file
    expect(o.maxQueuedMib).toBe(32); // flag over environment and file
    expect(o.retentionDays).toBe(13);
    expect(o.allowedHosts).toEqual(['file.example']);
    expect(o.trustProxy).toBe(true);
    expect(o.lan).toBe(false); // an empty variable is an unset one
    expect(o.maxBlobMib).toBe(DEFAULT_CONFIG.maxBlobMib); // nobody set it
    expect(o.configFile).toBe('/etc/relay/relay.toml');

    // a list comes whole from the highest source that has it
    expect(serve(['--allow-host', 'a.example'], env, files).allowedHosts).toEqual(['a.example']);
    expect(serve([], { ...env, RELAY_ALLOW_HOST: 'b.example, c.example' }, files).allowedHosts).toEqual([
      'b.example',
      'c.example',
    ]);
    // --config wins over RELAY_CONFIG
    expect(serve(['--config', '/other.json'], env, { ...files, '/other.json': '{"rate-limit": 99}' }).rateLimit).toBe(
      99,
    );
  });

  it('has a variable for every flag, named mechanically, and RELAY_DATABASE_URL for --database', () => {
    for (const name of Object.keys(SERVE_SETTINGS) as SettingName[])
      expect(envName(name)).toBe(
        name === 'database' ? 'RELAY_DATABASE_URL' : `RELAY_${name.toUpperCase().replaceAll('-', '_')}`,
      );
    const o = serve([], {
      RELAY_HOST: '::1',
      RELAY_PORT: '9000',
      RELAY_RATE_LIMIT: '0',
      RELAY_LAN: 'yes',
      RELAY_TRUST_PROXY: 'off',
      RELAY_LOG_LEVEL: 'debug',
      RELAY_LOG_FORMAT: 'json',
      RELAY_METRICS_PORT: '9464',
      RELAY_NODE_ID: 'node-a',
      RELAY_MAX_HELD_PULLS: '7',
    });
    expect(o).toMatchObject({
      host: '::1',
      port: 9000,
      rateLimit: 0,
      lan: true,
      trustProxy: false,
      logLevel: 'debug',
      logFormat: 'json',
      metrics: { host: '127.0.0.1', port: 9464 },
      nodeId: 'node-a',
      maxHeldPulls: 7,
    });
  });

  it('names the source of a bad value, and refuses unknown keys and wrong types in the file', () => {
    expect(() => serve([], { RELAY_PORT: 'eighty' })).toThrow(/^RELAY_PORT: expected an integer/);
    expect(() => serve([], { RELAY_LAN: 'maybe' })).toThrow(/^RELAY_LAN: expected 1, true/);
    const file =
      (text: string, name = '/r.toml') =>
      () =>
        serve(['--config', name], {}, { [name]: text });
    expect(file('port = "x"')).toThrow(/^port in r\.toml: expected an integer/);
    expect(file('rate_limit = 5')).toThrow(UsageError);
    expect(file('rate_limit = 5')).toThrow(/unknown setting "rate_limit" \(did you mean rate-limit\?\)/);
    expect(file('{"ratelimit": 5}', '/r.json')).toThrow(/\/r\.json: unknown setting "ratelimit"/);
    expect(file('config = "/x.toml"')).toThrow(/unknown setting "config"/);
    expect(file('lan = "yes"')).toThrow(/^lan in r\.toml: expected true or false/);
    expect(file('allow-host = [1, 2]')).toThrow(/^allow-host in r\.toml: expected a list of strings/);
    expect(file('[server]\nport = 1')).toThrow(/^server|unknown setting "server"/);
    expect(file('port = ')).toThrow(/r\.toml: not valid TOML/);
    expect(file('{"port": ', '/r.json')).toThrow(/r\.json: not valid JSON/);
    expect(() => serve(['--config', '/nowhere.toml'])).toThrow(/--config: cannot read \/nowhere\.toml \(ENOENT\)/);
    expect(() => serve(['--log-level', 'loud'])).toThrow(/--log-level: expected error, warn, info, debug/);
    expect(() => serve(['--log-format', 'xml'])).toThrow(/--log-format: expected json, pretty/);
    expect(() => serve(['--metrics-host', '0.0.0.0'])).toThrow(/--metrics-host needs a metrics port/);
  });

  it('reads paths relative to where the user stood: INIT_CWD under npm, the file folder for the file', () => {
    const npm = { INIT_CWD: '/home/op/site', npm_package_json: `${CWD}/package.json` };
    const o = serve(['--data', 'data', '--blob-dir', '../blobs', '--config', 'relay.toml'], npm, {
      '/home/op/site/relay.toml': 'rate-limit = 5',
    });
    expect(o.dataDir).toBe('/home/op/site/data');
    expect(o.blobDir).toBe('/home/op/blobs');
    expect(o.configFile).toBe('/home/op/site/relay.toml');
    expect(o.rateLimit).toBe(5);
    // the default data folder too; without npm, the process's own folder
    expect(serve([], npm).dataDir).toBe('/home/op/site/relay-data');
    expect(serve(['--data', 'd']).dataDir).toBe(`${CWD}/d`);
    // paths in the file are relative to the file
    const filed = serve(['--config', '/etc/relay/r.toml'], npm, {
      '/etc/relay/r.toml': 'data = "state"\nblob-dir = "/var/blobs"',
    });
    expect(filed.dataDir).toBe('/etc/relay/state');
    expect(filed.blobDir).toBe('/var/blobs');
    // a variable is the user's, like a flag
    expect(serve([], { ...npm, RELAY_DATA: 'env-data' }).dataDir).toBe('/home/op/site/env-data');
  });

  it('takes INIT_CWD only from npm itself: a process that inherited it elsewhere keeps its own folder', () => {
    expect(userDirectory({ INIT_CWD: '/home/op', npm_package_json: '/pkg/package.json' }, '/pkg')).toBe('/home/op');
    expect(userDirectory({ INIT_CWD: '/home/op', npm_package_json: '/pkg/package.json' }, '/elsewhere')).toBe(
      '/elsewhere',
    );
    expect(userDirectory({ INIT_CWD: '/home/op' }, '/pkg')).toBe('/home/op');
    expect(userDirectory({ INIT_CWD: 'relative' }, '/pkg')).toBe('/pkg');
    expect(userDirectory({}, '/pkg')).toBe('/pkg');
  });

  it('lets admin commands find the data the same way', () => {
    const inv = parseInvocation(
      ['admin', '--config', 'relay.toml', 'stats'],
      { INIT_CWD: '/home/op' },
      {
        cwd: CWD,
        readText: (p) => {
          expect(p).toBe('/home/op/relay.toml');
          return 'data = "state"\nrate-limit = 7';
        },
      },
    );
    expect(inv).toMatchObject({ mode: 'admin', options: { dataDir: '/home/op/state', database: null } });
    const byEnv = parseInvocation(['admin', 'stats'], { RELAY_DATA: '/var/relay' }, { cwd: CWD });
    expect(byEnv).toMatchObject({ options: { dataDir: '/var/relay' } });
    expect(parseInvocation(['admin', '--data', 'x', 'stats'], {}, { cwd: CWD })).toMatchObject({
      options: { dataDir: `${CWD}/x` },
    });
  });
});
