/**
 * Against a real `--lan` relay (HTTPS with its self-signed certificate): profiles that pin the
 * fingerprint sign in and talk; a profile with a wrong pin cannot even sign in; and the API key
 * a sign-in minted is nowhere in the profile folder in clear.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messenger } from '../../core/messenger.js';
import { toIpcError } from '../../../../shared/plain-errors.js';
import { PASSPHRASE, cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay({ lan: true });
}, 60_000);
afterAll(cleanup);

describe('a LAN relay with a pinned certificate', () => {
  it('serves https and pinned profiles exchange messages', async () => {
    expect(relay.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(relay.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const [a, b] = await Promise.all([
      newProfile(relay.url, { fingerprint: relay.fingerprint! }),
      newProfile(relay.url, { fingerprint: relay.fingerprint! }),
    ]);
    const { outcome } = await a.m.messages.sendAndWait(`direct:${b.address}`, 'over TLS');
    expect(outcome.routed).toBe('request');
    await b.m.syncPass();
    expect(b.m.messages.listMessages({ conversationId: `direct:${a.address}` }).map((m) => m.text)).toEqual([
      'over TLS',
    ]);
    expect((await a.m.appStatus()).relay).toMatchObject({ mode: 'lan', url: relay.url, connected: true });

    // the sealed API key: the profile folder never holds it in clear
    const key = await a.m.account.mintApiKey({ label: 'x' }).catch((e: unknown) => e);
    expect(toIpcError(key).code).toBe('entitlement-required');
    for (const file of readdirSync(a.dir)) {
      const bytes = readFileSync(join(a.dir, file)).toString('latin1');
      expect(bytes.includes('sk_live_'), file).toBe(false);
    }
  });

  it('a profile that pinned the whole certificate, as profiles did before pins moved to the key, still connects and keeps the key’s pin from then on', async () => {
    const certificate = relay.running.lan!.certificate;
    const p = await newProfile(relay.url, { fingerprint: certificate.fingerprint256 });
    expect((await p.m.appStatus()).relay).toMatchObject({ mode: 'lan', connected: true });
    // a pin on the certificate would end at its renewal; the key's outlives it
    expect(p.m.store.getSetting('relay.fingerprint')).toBe(certificate.pin.replace(/:/g, '').toLowerCase());
  });

  it('a wrong pin refuses the relay before signing in, and the profile is left as it was', async () => {
    const m = await Messenger.open({ profileDir: tempDir('wrong-pin'), autoSync: false });
    try {
      await m.wallet.create({ passphrase: PASSPHRASE });
      const wrong = relay.fingerprint!.replace(/^../, relay.fingerprint!.startsWith('00') ? '11' : '00');
      const err = await m.connectRelay({ mode: 'lan', url: relay.url, fingerprint: wrong }).catch((e: unknown) => e);
      expect(toIpcError(err).code).toBe('pin-mismatch');
      expect(toIpcError(err).message).toMatch(/fingerprint/);
      // refused before it was adopted: the profile has no relay yet, as before the attempt
      const st = await m.appStatus();
      expect(st.ready).toBe(false);
      expect(st.relay.url).toBeNull();
    } finally {
      await m.close();
    }
  });
});
