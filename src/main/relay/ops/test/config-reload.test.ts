/**
 * A reload (docs/operations.md, Reloading): the limits read again from the config file are in
 * force on the running relay at once, held pulls and their connections carry on, a file that
 * does not parse changes nothing, and settings that need a restart are named, not applied.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInvocation, type ServeOptions } from '../../cli-args.js';
import { reloadConfig } from '../config-reload.js';
import { relayLogger } from '../logger.js';
import { call, envelopeTo, signIn, startRelay, type TestRelay } from '../../test/harness.js';

let relay: TestRelay | undefined;
let dir: string | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function readOptions(file: string): ServeOptions {
  const inv = parseInvocation(['--config', file], {});
  if (inv.mode !== 'serve') throw new Error('not serve');
  return inv.options;
}

describe('reloading the config', () => {
  it('applies new limits to the running relay without dropping a held pull, and refuses a bad file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-reload-'));
    const file = join(dir, 'relay.toml');
    // the disk guard off, as the test relay has it
    writeFileSync(file, 'max-queued = 2\nrate-limit = 100\nmin-free-disk-mib = 0\n');
    const started = readOptions(file);
    relay = await startRelay({ maxQueued: started.maxQueued, rateLimit: started.rateLimit, minFreeDiskMib: 0 });
    const lines: Array<Record<string, unknown>> = [];
    const log = relayLogger({ level: 'info', destination: { write: (l) => void lines.push(JSON.parse(l)) } });
    const reload = () => reloadConfig({ live: relay!.app.liveConfig, log, started, read: () => readOptions(file) });

    const [alice, bob, carol, dave] = [
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
      await signIn(relay.url),
    ];
    const send = (to = bob) =>
      call(relay!.url, 'POST', '/api/v1/envelopes', { auth: alice.apiKey, body: envelopeTo(to) });
    // Bob takes Alice's envelopes as a contact's: the whole quota is hers to fill
    expect((await call(relay.url, 'PUT', `/api/v1/contacts/${alice.address}`, { auth: bob.apiKey })).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const full = await send();
    expect(full.status).toBe(429);
    expect(full.body.code).toBe('recipient-full');

    // Carol holds a pull across the reload
    const held = fetch(`${relay.url}/api/v1/envelopes?wait=20`, {
      headers: { authorization: `Bearer ${carol.apiKey}` },
    });
    while (relay.app.heldPulls === 0) await new Promise((r) => setTimeout(r, 10));

    writeFileSync(file, 'max-queued = 3\nrate-limit = 100\nmin-free-disk-mib = 0\nlog-level = "warn"\nport = 9999\n');
    const outcome = reload();
    expect(outcome.applied).toBe(true);
    expect(outcome.changed).toEqual({
      maxQueued: { from: 2, to: 3 },
      logLevel: { from: 'info', to: 'warn' },
    });
    expect(outcome.restartNeeded).toEqual(['port']);
    expect(relay.app.liveConfig.current.maxQueued).toBe(3);
    expect(log.level).toBe('warn');
    expect(lines.find((l) => String(l.msg).includes('next start'))?.settings).toEqual(['port']);

    // the new quota is in force: one more fits, the next does not
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    // the held pull is still there and answers with what comes
    expect(relay.app.heldPulls).toBe(1);
    expect((await send(carol)).status).toBe(200);
    const pulled = await held;
    expect(pulled.status).toBe(200);
    expect(((await pulled.json()) as { envelopes: unknown[] }).envelopes).toHaveLength(1);

    // the rate limit's new number counts at once: Dave, who has not used his key yet, has 4 a minute now
    writeFileSync(file, 'max-queued = 3\nrate-limit = 4\nmin-free-disk-mib = 0\nlog-level = "warn"\n');
    expect(reload().changed).toEqual({ rateLimit: { from: 100, to: 4 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call(relay.url, 'GET', '/api/v1/me', { auth: dave.apiKey })).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([429, 429]);

    // a file that does not parse, or names an unknown setting, changes nothing
    for (const bad of ['max-queued = ', 'max-queued = 50\nmax_queued = 50\n', 'max-queued = "lots"\n']) {
      writeFileSync(file, bad);
      lines.length = 0;
      expect(reload()).toEqual({ applied: false, changed: {}, restartNeeded: [] });
      expect(lines.map((l) => l.msg)).toEqual(['config reload refused; the running values stay']);
      expect(relay.app.liveConfig.current.maxQueued).toBe(3);
    }
    expect(lines[0].reason).toMatch(/max-queued in relay\.toml: expected an integer/);

    // turning the rate limit off takes a restart: refused, the number stays
    writeFileSync(file, 'max-queued = 3\nrate-limit = 0\nmin-free-disk-mib = 0\n');
    expect(reload().changed).toEqual({ logLevel: { from: 'warn', to: 'info' } });
    expect(relay.app.liveConfig.current.rateLimit).toBe(4);
  });

  it('re-reads who may join: a relay turned to invite mode refuses a new wallet at once, and RELAY_REGISTRATION sets it too', async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-reload-'));
    const file = join(dir, 'relay.toml');
    writeFileSync(file, 'registration = "open"\nmin-free-disk-mib = 0\n');
    const started = readOptions(file);
    expect(started.registration).toBe('open');
    relay = await startRelay({ registration: started.registration });
    const log = relayLogger({ level: 'info', destination: { write: () => undefined } });
    const reload = () => reloadConfig({ live: relay!.app.liveConfig, log, started, read: () => readOptions(file) });
    await signIn(relay.url);

    writeFileSync(file, 'registration = "invite"\nmin-free-disk-mib = 0\n');
    expect(reload().changed).toEqual({ registration: { from: 'open', to: 'invite' } });
    await expect(signIn(relay.url)).rejects.toThrow(/403 .*invite-required/);

    writeFileSync(file, 'registration = "members-only"\n');
    expect(reload().applied).toBe(false);
    expect(relay.app.liveConfig.current.registration).toBe('invite');

    const byEnv = parseInvocation([], { RELAY_REGISTRATION: 'closed' });
    expect(byEnv.mode === 'serve' && byEnv.options.registration).toBe('closed');
    expect(() => parseInvocation(['--registration', 'sometimes'], {})).toThrow(
      /--registration: expected open, invite, closed/,
    );
  });
});
