import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StakeCurrency } from '../../../shared/api/common.js';
import {
  AckBody,
  AckResult,
  BatchResults,
  PullQuery,
  PullResult,
  SendBody,
  SendResult,
} from '../../../shared/api/envelopes.js';
import type { StakeService } from '../chain/stake-service.js';
import type { QueueLimits, RelayStore } from '../store/store.js';
import { apiKeyCaller } from '../http/auth.js';
import { acceptAnyBody, parseEnvelopeBatch } from '../http/envelope-batch.js';
import { envelopesWire, presentOutcome } from '../http/present.js';
import { unauthorized } from '../http/errors.js';
import { fromStore } from '../http/store-errors.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';
import { TooManyWaiters, type WaiterRegistry } from '../live/waiters.js';

/** What held pulls need: the registry, what to tell a client turned away at the cap, and a fresh look at a credential. */
export interface LivePulls {
  waiters: WaiterRegistry;
  retryAfterSeconds: number;
  /** whether the request's credential is still valid, asked of the store afresh */
  stillValid: (req: FastifyRequest) => Promise<boolean>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What every send is checked against besides routing: queue quotas and the disk guard. */
export interface SendLimits {
  limits: QueueLimits;
  /** throws 507 storage-full while the disk is low */
  checkDisk: () => Promise<void>;
}

/** Direct sends, inbox pull and ack. */
export function envelopeRoutes(
  app: FastifyInstance,
  store: RelayStore,
  opts: { now: () => number; stakeCurrency: StakeCurrency; stakes: StakeService; live?: LivePulls } & SendLimits,
): void {
  const live = opts.live;
  const auth = { auth: 'api-key' as const };

  app.post(
    '/api/v1/envelopes',
    {
      config: auth,
      validatorCompiler: acceptAnyBody,
      schema: {
        tags: ['envelopes'],
        summary: 'Send sealed envelopes (one, an array, or { envelopes })',
        security: apiKeyAuth,
        description:
          'Routes each envelope by the anti-spam rules: `blocked` when the recipient blocks you, `request` for an intro or an unknown sender, ' +
          '`inbox` for contacts, `stake-gate` when the recipient asks unknown senders for a refundable stake (`stakeRequired`, `stakeCurrency`, and on a relay with a chain ' +
          'a `stakeQuote`: deposit it, then send again with `stakeRef` on each envelope; the envelopes arrive `request` carrying `stake`, or are refused with `stakeStatus`). ' +
          '503 `stake-unverifiable` when the chain cannot be read: nothing is delivered. ' +
          'A batch is all or nothing: one bad envelope refuses the whole request and queues nothing. At most 100 envelopes and 64 KiB of ciphertext each. ' +
          'Ciphertext that looks like plaintext (printable text, base64 of base64, JSON) is 400 `not-sealed`; a malformed field (ciphertext not base64 or under 17 bytes, ' +
          'a nonce not 12 bytes, a low-order key) is 400 `invalid-envelope`. ' +
          'Quotas (operator flags): a recipient device with too much undelivered mail refuses the whole request with 429 `recipient-full`; ' +
          'an envelope routed `request` past half of that quota (the share contact requests may fill, the rest is kept for contacts and groups) is 429 `requests-full`; ' +
          'too many undelivered contact requests and pending group invitations from you to one wallet is 429 `too-many-requests-pending`; a relay low on disk answers 507 `storage-full`.',
        body: SendBody,
        response: { 200: Type.Union([SendResult, BatchResults]), ...errorResponses(400, 401, 413, 429, 503, 507) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const { items, batch } = parseEnvelopeBatch(req.body, false);
      const now = opts.now();
      await opts.stakes.checkStakedItems(caller.address, items, now);
      await opts.checkDisk();
      const outcomes = await fromStore(
        store.deliver({
          senderAddress: caller.address,
          groupId: null,
          via: null,
          items,
          now,
          stakesEnabled: opts.stakes.enabled,
          limits: opts.limits,
        }),
        (i) => (batch ? `envelopes[${i}]` : 'envelope'),
      );
      const quotes = await opts.stakes.addQuotes(caller.address, items, outcomes, now);
      const results = outcomes.map((o, i) => presentOutcome(o, opts.stakeCurrency, quotes[i]));
      return batch ? { results } : results[0];
    },
  );

  app.get<{ Querystring: { limit?: number; wait?: number } }>(
    '/api/v1/envelopes',
    {
      config: auth,
      schema: {
        tags: ['envelopes'],
        summary: 'Pull the inbox (non-consuming; oldest first), optionally waiting for envelopes',
        security: apiKeyAuth,
        description:
          "Envelopes stay queued until acked. A device-bound key sees its own device's envelopes and those sealed to no device; " +
          'a key bound to no device sees only those sealed to no device. ' +
          'With `wait=S` (1–25) and nothing queued, the request is held until an envelope for the caller is committed, then answers at once; ' +
          'after S seconds it answers with no envelopes. Answers to a request with `wait` carry `Relay-Wait: <S>`. One held pull per credential: ' +
          "a second one answers the first with no envelopes, and so does the relay shutting down. A wallet holds at most 16 pulls (and at most a twentieth of the node's cap): one more answers its oldest " +
          'with no envelopes. Revoking the key or its device answers a held pull with it at once with 401. A held pull counts once against the rate limit. ' +
          'When the relay already holds its maximum of pulls it answers 503 `too-many-waiters` with `Retry-After`.',
        querystring: PullQuery,
        response: { 200: PullResult, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (req, reply) => {
      const caller = apiKeyCaller(req);
      const limit = req.query.limit ?? 100;
      const wait = req.query.wait;
      reply.header('Cache-Control', 'no-store');
      if (wait !== undefined) reply.header('Relay-Wait', String(wait));
      // the wallet's rings as they were when the latest look began (see below)
      let rings = live?.waiters.ringsOf(caller.address) ?? 0;
      let page = await store.pullWire(caller.address, caller.deviceKey, limit);
      if (page === '[]' && wait !== undefined && wait > 0 && live) {
        const deadline = performance.now() + wait * 1000;
        let since: number | null = null;
        for (;;) {
          let waiter;
          try {
            waiter = live.waiters.register(
              caller.keyId,
              caller.address,
              caller.deviceKey,
              Math.max(0, deadline - performance.now()),
            );
          } catch (err) {
            if (!(err instanceof TooManyWaiters)) throw err;
            return reply
              .code(503)
              .header('Retry-After', String(live.retryAfterSeconds))
              .send({ error: err.message, code: 'too-many-waiters' });
          }
          since ??= waiter.hold;
          // An aborted request leaves the registry at once, not when its wait runs out.
          const onClose = () => waiter.wake('aborted');
          reply.raw.once('close', onClose);
          // A client that went away during the look above has already had its 'close'.
          if (reply.raw.destroyed) waiter.wake('aborted');
          // A send committed after the latest look began rang before this registration (the rings
          // moved): one more look, registered now, so a send committed meanwhile rings this waiter.
          // Unmoved, the look saw all there is: a held pull's cycle is two looks, not three.
          const ringsAtHold = live.waiters.ringsOf(caller.address);
          if (ringsAtHold !== rings) {
            rings = ringsAtHold;
            page = await store.pullWire(caller.address, caller.deviceKey, limit);
            if (page !== '[]') waiter.wake('rung');
          }
          const reason = await waiter.woken;
          reply.raw.off('close', onClose);
          if (reason === 'revoked') throw unauthorized();
          if (reason === 'recheck') {
            // This node may have missed a revocation: a credential still valid waits out the rest.
            if (!(await live.stillValid(req))) throw unauthorized();
            if (page === '[]' && performance.now() < deadline) continue;
            break;
          }
          if (page !== '[]' || reason !== 'rung') break;
          const ringsNow = live.waiters.ringsOf(caller.address);
          // Nothing rang for the wallet between the latest look (which found the queue empty) and
          // the ring that woke it, nor since: the queue holds just what that ring carried.
          const handed = waiter.handed;
          const wire =
            handed && handed.before === rings && handed.after === ringsNow
              ? envelopesWire(handed.rows.slice(0, limit))
              : null;
          if (wire !== null) {
            page = wire;
            break;
          }
          rings = ringsNow;
          page = await store.pullWire(caller.address, caller.deviceKey, limit);
          // Woken but nothing to show (another device acked it first): wait out the rest.
          if (page !== '[]' || performance.now() >= deadline) break;
        }
        // A revocation that came while the pull was reading its page (not waiting): nothing sent after it goes out.
        if (since !== null && live.waiters.isRevoked(caller.keyId, caller.address, caller.deviceKey, since))
          throw unauthorized();
      }
      // Already the wire JSON (PullResult), so Fastify sends the text as it is.
      return reply.type('application/json; charset=utf-8').send(`{"envelopes":${page}}`);
    },
  );

  app.post<{ Body: { ids: string[] } }>(
    '/api/v1/envelopes/ack',
    {
      config: auth,
      schema: {
        tags: ['envelopes'],
        summary: 'Acknowledge envelopes: they are marked delivered and removed',
        security: apiKeyAuth,
        description:
          'Ids that are not yours, not uuids or already acked are ignored and not counted. Yours are what your pull sees: ' +
          "a key bound to no device never removes an envelope sealed to a device, nor a device another device's.",
        body: AckBody,
        response: { 200: AckResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const ids = [...new Set(req.body.ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
      const acked = ids.length === 0 ? 0 : await store.ack(caller.address, caller.deviceKey, ids);
      return { ok: true as const, acked };
    },
  );
}
