#!/usr/bin/env node
// `npm run test:install`: proves the production path of docs/operations.md (Install as a
// service) in a scratch copy: only what runs is copied (bin/, the built bundle in out/node,
// package.json and the lockfile, no sources, no esbuild), `npm ci --omit=dev` installs it, and
// the relay started from it serves a sign-in and a send on loopback and stops cleanly on SIGTERM.
//
// Install scripts are skipped in the scratch install and the native SQLite binding is copied from
// this checkout's install (the same lockfile and Node), since compiling it again takes minutes;
// the root package's own postinstall is then run as npm would, to prove it passes without
// patch-package. Needs a build: `npm run build` (or `npm run build:node`) first.
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const say = (line) => console.log(`test:install: ${line} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const fail = (why) => {
  console.error(`test:install: FAILED: ${why}`);
  process.exit(1);
};

const pointer = join(root, 'out/node/current.json');
if (!existsSync(pointer)) fail('no build in out/node: run `npm run build` first');
const build = JSON.parse(readFileSync(pointer, 'utf8')).dir;
const scratch = mkdtempSync(join(tmpdir(), 'relay-install-'));
let relay;
try {
  for (const f of ['package.json', 'package-lock.json', '.config/build-node.mjs', '.config/postinstall.mjs'])
    cpSync(join(root, f), join(scratch, f));
  cpSync(join(root, 'bin'), join(scratch, 'bin'), { recursive: true });
  mkdirSync(join(scratch, 'out/node'), { recursive: true });
  cpSync(pointer, join(scratch, 'out/node/current.json'));
  cpSync(join(root, 'out/node', build), join(scratch, 'out/node', build), { recursive: true });
  say(`copied the build into ${scratch}`);

  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const ci = spawnSync(npm, ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (ci.status !== 0) fail(`npm ci --omit=dev exited ${ci.status}`);
  if (existsSync(join(scratch, 'node_modules/esbuild'))) fail('esbuild was installed by a production install');
  const binding = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(join(scratch, binding, '..'), { recursive: true });
  copyFileSync(join(root, binding), join(scratch, binding));
  const post = spawnSync(process.execPath, ['.config/postinstall.mjs'], { cwd: scratch, stdio: 'inherit' });
  if (post.status !== 0) fail('the postinstall step failed without patch-package');
  say('npm ci --omit=dev done');

  relay = spawn(process.execPath, ['bin/relay.mjs', '--port', '0', '--data', 'relay-data'], {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  relay.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => relay.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    relay.stdout.on('data', (d) => {
      out += d;
      const m = /^relay listening on (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    relay.once('exit', () => reject(new Error(`the relay exited before it listened: ${stderr}`)));
    setTimeout(() => reject(new Error('the relay did not listen within 30 s')), 30_000);
  });
  if (stderr.includes('built ')) fail('the relay built itself in the production copy');
  say(`relay listening on ${url}`);

  // viem is a production dependency: signing with it from the scratch install proves it is there
  const { privateKeyToAccount, generatePrivateKey } = await import(
    pathToFileURL(join(scratch, 'node_modules/viem/_esm/accounts/index.js')).href
  );
  const call = async (method, path, apiKey, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) fail(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const signIn = async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const address = account.address.toLowerCase();
    const jwk = generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' });
    const deviceKey = Buffer.from(jwk.x, 'base64url').toString('hex');
    const { message } = await call('POST', '/api/v1/auth/challenge', null, { address });
    const minted = await call('POST', '/api/v1/auth/keys', null, {
      message,
      signature: await account.signMessage({ message }),
      label: 'install check',
      device: {
        publicKey: deviceKey,
        certificate: await account.signMessage({ message: `Relay device key ${deviceKey} for ${address}` }),
      },
    });
    return { address, deviceKey, apiKey: minted.apiKey };
  };
  const alice = await signIn();
  const bob = await signIn();
  await call('PUT', `/api/v1/contacts/${alice.address}`, bob.apiKey);
  const ephemeral = generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' });
  const sent = await call('POST', '/api/v1/envelopes', alice.apiKey, {
    toAddress: bob.address,
    recipientDeviceKey: bob.deviceKey,
    ciphertext: randomBytes(200).toString('base64'),
    ephemeralPublicKey: Buffer.from(ephemeral.x, 'base64url').toString('hex'),
    nonce: randomBytes(12).toString('base64'),
  });
  const pulled = await call('GET', '/api/v1/envelopes?wait=0', bob.apiKey);
  if (pulled.envelopes?.length !== 1) fail(`the recipient pulled ${pulled.envelopes?.length} envelopes, not 1`);
  say(`signed in twice and sent once (${JSON.stringify(sent.results?.[0]?.routed ?? sent.routed)})`);

  relay.kill('SIGTERM');
  const end = await exited;
  relay = undefined;
  if (end.code !== 0) fail(`the relay exited ${JSON.stringify(end)} on SIGTERM: ${stderr}`);
  say('stopped cleanly; the production install works');
} catch (err) {
  fail(err?.stack ?? String(err));
} finally {
  relay?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
}
