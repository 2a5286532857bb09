/**
 * Text is text (docs/protocol.md, Errors): every string the relay stores or searches refuses
 * control characters (U+0000 included) with 400 `invalid-text`, never a 500, on SQLite and on
 * PostgreSQL (`npm run test:cluster` runs this file there); group and token names also refuse
 * emptiness, bidirectional overrides and isolates, and zero-width characters. A sign-in whose
 * label or invite code is refused keeps its challenge.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, startRelay, type Call, type TestRelay, type TestUser } from '../harness.js';

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const CONTROLS = [...range(0x00, 0x1f), ...range(0x7f, 0x9f)];
const BIDI = [...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];
const ZERO_WIDTH = [...range(0x200b, 0x200d), '\u2060', '\ufeff'];
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);

/** Short text around the character under test: letters, spaces and other scripts, nothing refused. */
const plain = fc.string({
  unit: fc.constantFrom('a', 'Z', '7', ' ', 'é', 'ß', 'д', 'ع', '中', '😀', '-', '_'),
  maxLength: 6,
});
const around = (chars: string[]) =>
  fc.tuple(plain, fc.constantFrom(...chars), plain).map(([a, c, b]) => `x${a}${c}${b}`);

interface Field {
  name: string;
  /** whether bidi and zero-width characters are refused too (names), or kept (labels, searches) */
  strict: boolean;
  send(text: string): Promise<Call>;
}

describe('text fields refuse control characters on every store', () => {
  let relay: TestRelay;
  let alice: TestUser;
  let groupId: string;
  let fields: Field[];

  beforeAll(async () => {
    relay = await startRelay({ maxGroupsPerWallet: 1000, maxKeysPerWallet: 100_000 });
    alice = await signIn(relay.url);
    await relay.store.grantEntitlement(alice.address, 'developer-api');
    const created = await call(relay.url, 'POST', '/api/v1/groups', {
      auth: alice.apiKey,
      body: { name: 'text', isPublic: false },
    });
    expect(created.status).toBe(201);
    groupId = created.body.id;
    const as = (method: string, path: string, body: (t: string) => unknown) => (text: string) =>
      call(relay.url, method, path, { auth: alice.apiKey, body: body(text) });
    fields = [
      {
        name: 'group name (create)',
        strict: true,
        send: as('POST', '/api/v1/groups', (name) => ({ name, isPublic: false })),
      },
      { name: 'group name (edit)', strict: true, send: as('PATCH', `/api/v1/groups/${groupId}`, (name) => ({ name })) },
      { name: 'token name', strict: true, send: as('POST', `/api/v1/groups/${groupId}/tokens`, (name) => ({ name })) },
      { name: 'minted key label', strict: false, send: as('POST', '/api/v1/me/keys', (label) => ({ label })) },
      {
        name: 'group avatar',
        strict: false,
        send: as('PATCH', `/api/v1/groups/${groupId}`, (t) => ({ avatar: `https://example.org/${t}.png` })),
      },
      {
        name: 'directory query',
        strict: false,
        send: (q) => call(relay.url, 'GET', `/api/v1/directory?q=${encodeURIComponent(q)}`, { auth: alice.apiKey }),
      },
      { name: 'sign-in label', strict: false, send: (label) => signInWith({ label }).then((r) => r.keys) },
      // a wallet the relay knows needs no invite, so a code that passes the text check is ignored
      { name: 'sign-in invite code', strict: false, send: (invite) => signInWith({ invite }).then((r) => r.keys) },
    ];
  });
  afterAll(async () => relay?.close());

  /** A sign-in with this label or invite; then the same challenge again without it, to see whether it was spent. */
  async function signInWith(extra: { label?: string; invite?: string }): Promise<{ keys: Call; retry: Call }> {
    const address = alice.address;
    const ch = await call(relay.url, 'POST', '/api/v1/auth/challenge', { body: { address } });
    const message = ch.body.message as string;
    const signature = await alice.account.signMessage({ message });
    const keys = await call(relay.url, 'POST', '/api/v1/auth/keys', { body: { message, signature, ...extra } });
    const retry =
      keys.status === 200 ? keys : await call(relay.url, 'POST', '/api/v1/auth/keys', { body: { message, signature } });
    return { keys, retry };
  }

  const refused = (r: Call, what: string) =>
    expect([r.status, r.body.code], `${what} → ${r.status} ${JSON.stringify(r.body)}`).toEqual([400, 'invalid-text']);
  const accepted = (r: Call, what: string) => {
    expect(r.status, `${what} → ${r.status} ${JSON.stringify(r.body)}`).toBeLessThan(300);
    expect(r.status).toBeGreaterThanOrEqual(200);
  };

  it('every C0 and C1 control character, U+0000 first, is 400 invalid-text in every field', async () => {
    for (const field of fields)
      for (const c of CONTROLS) refused(await field.send(`a${c}b`), `${field.name} U+${c.charCodeAt(0).toString(16)}`);
  }, 300_000);

  it('names refuse every bidi override or isolate and every zero-width character; labels and searches keep them', async () => {
    for (const field of fields)
      for (const c of [...BIDI, ...ZERO_WIDTH]) {
        const r = await field.send(`a${c}b`);
        const what = `${field.name} U+${c.charCodeAt(0).toString(16)}`;
        if (field.strict) refused(r, what);
        else accepted(r, what);
      }
  }, 300_000);

  it('a name of spaces only is refused; a name is kept trimmed', async () => {
    for (const field of fields.filter((f) => f.strict)) refused(await field.send(' \u3000 '), field.name);
    const made = await call(relay.url, 'POST', '/api/v1/groups', {
      auth: alice.apiKey,
      body: { name: '  Team 中 😀  ', isPublic: false },
    });
    expect([made.status, made.body.name]).toEqual([201, 'Team 中 😀']);
  });

  it('a refused sign-in label keeps the challenge: the same signed message signs in afterwards', async () => {
    const { keys, retry } = await signInWith({ label: 'laptop\u0000' });
    refused(keys, 'sign-in label');
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.apiKey).toMatch(/^sk_live_/);
  });

  it(`property (seed ${SEED}): any field, any refused character anywhere in other text, never a 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 1000 }),
        fc.oneof(around(CONTROLS), around([...BIDI, ...ZERO_WIDTH])),
        async (i, text) => {
          const field = fields[i % fields.length];
          const r = await field.send(text);
          expect(r.status, `${field.name} ${JSON.stringify(text)}`).toBeLessThan(500);
          const control = CONTROLS.some((c) => text.includes(c));
          if (control || field.strict) refused(r, `${field.name} ${JSON.stringify(text)}`);
          else accepted(r, `${field.name} ${JSON.stringify(text)}`);
        },
      ),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  }, 300_000);
});
