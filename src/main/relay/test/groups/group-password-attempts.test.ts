/**
 * Guessing a group's password (docs/protocol.md §12, Join): five wrong passwords for one group,
 * from any callers, and the sixth try is 429 `too-many-attempts` with Retry-After, the password
 * not even looked at; the hold doubles from 30 s up to 15 minutes, a right password clears the
 * count, and other groups are not held. Requests go to one node: on a cluster each counts alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdMs } from '../../auth/group-password-attempts.js';
import { call, signIn, startRelay, type TestRelay, type TestUser } from '../harness.js';

let relay: TestRelay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => relay.close());

const api = (u: TestUser, method: string, path: string, body?: unknown) =>
  call(relay.nodeUrl, method, path, { auth: u.apiKey, body });
const join = (u: TestUser, groupId: string, password: string) =>
  api(u, 'POST', `/api/v1/groups/${groupId}/join`, { password });

async function passwordGroup(creator: TestUser, password: string): Promise<string> {
  const r = await api(creator, 'POST', '/api/v1/groups', { name: 'Locked', isPublic: true, password });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe('group password guesses', () => {
  it('holds a group after five wrong passwords from anyone: the sixth is 429 too-many-attempts, growing, cleared by the right one', async () => {
    relay.clock.now = Date.parse('2030-01-01T00:00:00Z');
    const creator = await signIn(relay.nodeUrl);
    const callers = await Promise.all([1, 2, 3].map(() => signIn(relay.nodeUrl)));
    const g = await passwordGroup(creator, 'the right one');
    const other = await passwordGroup(creator, 'another');

    for (let i = 0; i < 5; i++) {
      const r = await join(callers[i % 2], g, `guess ${i}`);
      expect(r.status, `try ${i + 1}`).toBe(403);
      expect(r.body.code).toBe('wrong-password');
    }
    const sixth = await join(callers[2], g, 'guess 5');
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: expect.stringContaining('30 s'), code: 'too-many-attempts' });
    expect(sixth.headers.get('retry-after')).toBe('30');
    // held: even the right password waits, and so does everyone
    expect((await join(callers[2], g, 'the right one')).status).toBe(429);
    // another group is not held
    expect((await join(callers[2], other, 'wrong')).status).toBe(403);

    // after the hold one guess goes through; a wrong one holds the group twice as long
    relay.clock.now += 30_001;
    expect((await join(callers[0], g, 'guess 6')).status).toBe(403);
    const longer = await join(callers[0], g, 'guess 7');
    expect(longer.status).toBe(429);
    expect(longer.headers.get('retry-after')).toBe('60');

    // the right password clears the count: five wrong ones again before the next hold of 30 s
    relay.clock.now += 60_001;
    const joined = await join(callers[2], g, 'the right one');
    expect(joined.status).toBe(200);
    expect(joined.body.members).toContain(callers[2].address);
    for (let i = 0; i < 5; i++) expect((await join(callers[1], g, `again ${i}`)).status).toBe(403);
    const held = await join(callers[1], g, 'again 5');
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('30');
  });

  it('guesses sent at once get no more tries than one after the other', async () => {
    relay.clock.now = Date.parse('2030-02-01T00:00:00Z');
    const creator = await signIn(relay.nodeUrl);
    const guesser = await signIn(relay.nodeUrl);
    const g = await passwordGroup(creator, 'right');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => join(guesser, g, `burst ${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('the hold doubles from 30 s up to 15 minutes', () => {
    expect([4, 5, 6, 7, 8, 9, 10, 11, 40].map(holdMs)).toEqual([
      0, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000,
    ]);
  });
});
