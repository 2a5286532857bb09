import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Address, DeviceKey, ErrorBody, OkBody } from '../../../shared/api/common.js';
import {
  ChallengeBody,
  ChallengeResult,
  Contacts,
  DeviceRegistration,
  HandleBody,
  KeyList,
  MintKeyBody,
  MintKeyResult,
  Policy,
  SignInBody,
  type Policy as PolicyT,
  type SignInBody as SignInBodyT,
} from '../../../shared/api/account.js';
import { DeviceRecord, HandleRecord } from '../../../shared/api/directory.js';
import { mintSecret } from '../auth/credentials.js';
import { DEFAULT_STAKE } from '../routing.js';
import { stakeUnavailable, weiOf } from '../chain/stake-service.js';
import { buildChallenge, challengeNonce, deviceCertificateValid, recoverSigner } from '../auth/sign-in.js';
import { isLowS } from '../auth/low-s.js';
import type { SignInSites } from '../auth/sign-in-site.js';
import { requestAuthority } from '../http/guards/host-header.js';
import { MAX_LIST_ENTRIES, type RelayStore } from '../store/store.js';
import { apiKeyCaller } from '../http/auth.js';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.js';
import { iso, presentApiKey } from '../http/present.js';
import { signInRateLimit } from '../http/guards/rate-limit.js';
import { fromStore } from '../http/store-errors.js';
import { apiKeyAuth, errorResponses } from './route-docs.js';
import { admissionRefusal } from '../moderation/sign-in-admission.js';
import type { RegistrationMode } from '../store/moderation-rows.js';
import { checkText } from '../http/text-fields.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AddressParams = Type.Object({ address: Address });

export interface AccountOptions {
  now: () => number;
  /** which site sign-in messages name, and whether a signed one names this relay */
  sites: SignInSites;
  /** --trust-proxy: a forwarded host names the public authority, port included */
  trustProxy: boolean;
  chainId: number;
  rateLimit: number;
  randomUUID: () => string;
  /** false on a relay without a stake chain: stake-gate cannot be set (409 stake-unavailable) */
  stakesEnabled: boolean;
  /** active API keys one wallet may have (409 too-many-keys past it) */
  maxKeysPerWallet: number;
  /** throws 507 storage-full while the disk is low (handle claims and minted keys; sign-in keeps working) */
  checkDisk: () => Promise<void>;
  /** who may sign in for the first time, read per sign-in (a reload may change it) */
  registration: RegistrationMode;
}

/** Sign-in (EIP-4361), API keys, devices, handle, inbox policy, contacts and blocks. */
export function accountRoutes(app: FastifyInstance, store: RelayStore, opts: AccountOptions): void {
  const keyOnly = { auth: 'api-key' as const };
  // on or off for the life of the app; its number is read per request (a reload may change it)
  const signIn = opts.rateLimit > 0 ? { rateLimit: signInRateLimit(() => opts.rateLimit) } : {};

  /** `device`: a sign-in's certificate of `deviceKey`, registered with the key (one transaction: refused, neither is kept). */
  async function mintKey(
    address: string,
    label: string | null,
    deviceKey: string | null,
    device?: { certificate: string },
  ) {
    const { secret, hash, prefix } = mintSecret('api-key');
    const row = {
      id: opts.randomUUID(),
      address,
      label,
      prefix,
      deviceKey,
      createdAt: opts.now(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await fromStore(store.insertApiKey({ ...row, hash }, opts.maxKeysPerWallet, device));
    return { apiKey: secret, key: presentApiKey(row) };
  }

  app.post<{ Body: { address: string } }>(
    '/api/v1/auth/challenge',
    {
      config: { auth: 'none', ...signIn },
      schema: {
        tags: ['account'],
        summary: 'Get an EIP-4361 sign-in message for an address (valid 5 minutes, single use)',
        security: [],
        description:
          "The message names the relay's `--base-url` when it has one; otherwise the Host the request came to, which must then be a plain " +
          '`host[:port]` (a DNS name, an IPv4 address or a bracketed IPv6 address, port 1-65535): anything else is 400 `bad-host`. ' +
          'Its port (or the scheme default) must be the one the request arrived on (behind `--trust-proxy`, the forwarded host names it): otherwise 421 `host-not-allowed`.',
        body: ChallengeBody,
        response: {
          200: ChallengeResult,
          ...errorResponses(429),
          400: {
            ...ErrorBody,
            description:
              'Bad request: the body is malformed (`invalid-request`), or the Host is not a plain host[:port] (`bad-host`)',
          },
          421: {
            ...ErrorBody,
            description:
              'The Host names a host this relay does not answer for, or another port than the one the request arrived on (`host-not-allowed`)',
          },
        },
      },
    },
    async (req) => {
      const address = req.body.address.toLowerCase();
      const c = buildChallenge({
        address,
        site: opts.sites.forRequest(requestAuthority(req, opts.trustProxy)),
        chainId: opts.chainId,
        now: opts.now(),
      });
      await store.createChallenge({ nonce: c.nonce, address, message: c.message, expiresAt: c.expiresAt });
      return { message: c.message, expiresAt: iso(c.expiresAt) };
    },
  );

  app.post<{ Body: SignInBodyT }>(
    '/api/v1/auth/keys',
    {
      config: { auth: 'none', ...signIn },
      schema: {
        tags: ['account'],
        summary: 'Exchange a signed challenge for an API key (shown once), registering this device',
        security: [],
        description:
          'A `label` with control characters is 400 `invalid-text` and leaves the challenge unused; any other failed attempt uses up the challenge nonce. ' +
          'A message that is not EIP-4361 is 400 `not-siwe`; one that names another host or port than the one this request reached, or a high-S signature, is 401 `bad-signin`. ' +
          'With `device`, its certificate must verify (low-S, else 400 `bad-certificate`) and the key is bound to that device, which alone lets it pull and ack what was sealed to that device. ' +
          'A wallet has at most `--max-keys-per-wallet` active keys (default 50): past it 409 `too-many-keys`, whose message says where old keys are revoked. ' +
          'A refused sign-in registers no device and mints no key. ' +
          'A wallet this relay has not seen before signs in only as `--registration` allows: in `invite` mode with a live code in `invite` ' +
          '(without one 403 `invite-required`; a used-up, expired or revoked one 403 `invite-invalid`), in `closed` mode never ' +
          '(403 `registration-closed`). A suspended wallet is 403 `suspended`. ' +
          "A wallet's first sign-in on a relay low on disk answers 507 `storage-full`; wallets it knows still sign in.",
        body: SignInBody,
        response: { 200: MintKeyResult, ...errorResponses(400, 401, 403, 409, 429, 507) },
      },
    },
    async (req) => {
      // before the nonce is looked up: a refused label must not use the challenge up
      const label = checkText(req.body.label, 'the label');
      const invite = checkText(req.body.invite, 'the invite code') ?? null;
      const nonce = challengeNonce(req.body.message);
      if (!nonce) throw badRequest('message is not an EIP-4361 sign-in message from this relay', 'not-siwe');
      const challenge = await fromStore(store.consumeChallenge(nonce, opts.now()));
      if (challenge.message !== req.body.message)
        throw unauthorized('the message differs from the challenge', 'challenge-mismatch');
      // The message must name this relay as this request reached it, host and port: a challenge
      // issued under another rule (an upgrade, a new --base-url) or fetched through another
      // authority is not exchanged here.
      if (!opts.sites.names(challenge.message, requestAuthority(req, opts.trustProxy)))
        throw unauthorized('the message does not name this relay (host and port)', 'bad-signin');
      if (!isLowS(req.body.signature))
        throw unauthorized('the signature is not in the canonical low-S form', 'bad-signin');
      if ((await recoverSigner(req.body.message, req.body.signature)) !== challenge.address)
        throw unauthorized('the signature is not by the challenged address', 'bad-signature');
      const device = req.body.device && {
        publicKey: req.body.device.publicKey.toLowerCase(),
        certificate: req.body.device.certificate,
      };
      if (device && !(await deviceCertificateValid(device.publicKey, challenge.address, device.certificate)))
        throw badRequest('the device certificate does not verify for this address', 'bad-certificate');
      // A wallet the relay has not seen adds an account; one it knows adds at most a key and a device.
      // Checked before admission, so that a refused first sign-in spends no invite code.
      if (!(await store.getAccount(challenge.address))) await opts.checkDisk();
      // After the signature, so that nobody learns a wallet's standing without holding it.
      const admission = await store.admitSignIn(challenge.address, {
        mode: opts.registration,
        invite,
        now: opts.now(),
      });
      if (admission !== 'admitted') throw admissionRefusal(admission);
      // A device signing in again keeps its registration; someone else's or a revoked key is 409 device-exists.
      return mintKey(
        challenge.address,
        label ?? (device ? 'device sign-in' : 'sign-in'),
        device?.publicKey ?? null,
        device && { certificate: device.certificate },
      );
    },
  );

  app.get(
    '/api/v1/me/keys',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: "List your wallet's API keys (metadata only)",
        security: apiKeyAuth,
        response: { 200: KeyList, ...errorResponses(401, 429) },
      },
    },
    async (req) => ({ keys: (await store.listApiKeys(apiKeyCaller(req).address)).map(presentApiKey) }),
  );

  app.post<{ Body: { label?: string } }>(
    '/api/v1/me/keys',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Mint another API key (needs the developer-api entitlement; secret shown once)',
        security: apiKeyAuth,
        description:
          'Past `--max-keys-per-wallet` active keys 409 `too-many-keys`; a relay low on disk answers 507 `storage-full`.',
        body: MintKeyBody,
        response: { 201: MintKeyResult, ...errorResponses(400, 401, 403, 409, 429, 507) },
      },
    },
    async (req, reply) => {
      const caller = apiKeyCaller(req);
      if (!(await store.getEntitlements(caller.address)).includes('developer-api'))
        throw forbidden(
          'minting API keys needs the developer-api entitlement, granted by the relay operator',
          'entitlement-required',
        );
      const label = checkText(req.body?.label, 'the label') ?? null;
      await opts.checkDisk();
      reply.code(201);
      return mintKey(caller.address, label, null);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/me/keys/:id',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Revoke one of your API keys',
        security: apiKeyAuth,
        params: Type.Object({ id: Type.String() }),
        response: { 200: OkBody, ...errorResponses(401, 404, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const id = req.params.id.toLowerCase();
      if (!UUID.test(id) || !(await store.revokeApiKey(caller.address, id, opts.now())))
        throw notFound('no such API key', 'key-not-found');
      return { ok: true as const };
    },
  );

  app.post<{ Body: { publicKey: string; certificate: string } }>(
    '/api/v1/devices',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Register another device key with its wallet-signed certificate',
        security: apiKeyAuth,
        description: 'A relay low on disk answers 507 `storage-full`.',
        body: DeviceRegistration,
        response: { 201: DeviceRecord, ...errorResponses(400, 401, 409, 429, 507) },
      },
    },
    async (req, reply) => {
      const caller = apiKeyCaller(req);
      await opts.checkDisk();
      const publicKey = req.body.publicKey.toLowerCase();
      if (!(await deviceCertificateValid(publicKey, caller.address, req.body.certificate)))
        throw badRequest('the device certificate does not verify for this address', 'bad-certificate');
      const d = await fromStore(
        store.addDevice({ publicKey, address: caller.address, certificate: req.body.certificate, now: opts.now() }),
      );
      reply.code(201);
      return { publicKey: d.publicKey, certificate: d.certificate, createdAt: iso(d.createdAt) };
    },
  );

  app.delete<{ Params: { publicKey: string } }>(
    '/api/v1/devices/:publicKey',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Revoke one of your devices, its bound API keys and its undelivered envelopes',
        security: apiKeyAuth,
        params: Type.Object({ publicKey: DeviceKey }),
        response: { 200: OkBody, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      if (!(await store.revokeDevice(caller.address, req.params.publicKey.toLowerCase(), opts.now())))
        throw notFound('no such device of yours', 'device-not-found');
      return { ok: true as const };
    },
  );

  app.put<{ Body: { handle: string } }>(
    '/api/v1/me/handle',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Claim or change your handle (3-32 of a-z, 0-9, _; case-insensitive)',
        security: apiKeyAuth,
        description:
          'A changed handle frees the old one at once. 409 when someone else holds it; a relay low on disk answers 507 `storage-full`.',
        body: HandleBody,
        response: { 200: HandleRecord, ...errorResponses(400, 401, 409, 429, 507) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      await opts.checkDisk();
      const a = await fromStore(store.setHandle(caller.address, req.body.handle.toLowerCase(), opts.now()));
      return {
        handle: a.handle as string,
        address: a.address,
        verified: a.verified,
        claimedAt: iso(a.handleClaimedAt as number),
      };
    },
  );

  const policyOf = (unknownSenders: PolicyT['unknownSenders'], stake: string | null): PolicyT =>
    unknownSenders === 'stake-gate' ? { unknownSenders, stake: stake ?? DEFAULT_STAKE } : { unknownSenders };

  app.get(
    '/api/v1/me/policy',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Your inbox policy for unknown senders',
        security: apiKeyAuth,
        response: { 200: Policy, ...errorResponses(401, 429) },
      },
    },
    async (req) => {
      const a = await store.getAccount(apiKeyCaller(req).address);
      return policyOf(a?.unknownSenders ?? 'request', a?.stake ?? null);
    },
  );

  app.put<{ Body: PolicyT }>(
    '/api/v1/me/policy',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Set what happens to unknown senders: request (default), stake-gate (with stake), or block',
        security: apiKeyAuth,
        description:
          '409 `stake-unavailable` for stake-gate on a relay without a chain (GET /api/v1/stake-config says `enabled: false`); a relay low on disk answers 507 `storage-full`.',
        body: Policy,
        response: { 200: Policy, ...errorResponses(400, 401, 409, 429, 507) },
      },
    },
    async (req) => {
      const caller = apiKeyCaller(req);
      const { unknownSenders, stake } = req.body;
      if (stake !== undefined && unknownSenders !== 'stake-gate')
        throw badRequest('stake applies only to the stake-gate policy', 'invalid-policy');
      if (stake !== undefined && !/[1-9]/.test(stake))
        throw badRequest('stake must be more than zero', 'invalid-policy');
      if (unknownSenders === 'stake-gate' && !opts.stakesEnabled) throw stakeUnavailable();
      if (stake !== undefined && weiOf(stake) === null)
        throw badRequest('stake is more than the escrow can hold (2^96 − 1 wei)', 'invalid-policy');
      const normalised = stake === undefined ? null : stake.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
      await opts.checkDisk();
      await store.setPolicy(
        caller.address,
        unknownSenders,
        unknownSenders === 'stake-gate' ? (normalised ?? DEFAULT_STAKE) : null,
      );
      return policyOf(unknownSenders, normalised);
    },
  );

  app.get(
    '/api/v1/contacts',
    {
      config: keyOnly,
      schema: {
        tags: ['account'],
        summary: 'Your allow and block lists',
        security: apiKeyAuth,
        response: { 200: Contacts, ...errorResponses(401, 429) },
      },
    },
    async (req) => store.getContacts(apiKeyCaller(req).address),
  );

  for (const [path, list, verb] of [
    ['contacts', 'allow', 'Allow a sender (accepts a contact request)'],
    ['blocks', 'block', 'Block a sender'],
  ] as const) {
    app.put<{ Params: { address: string } }>(
      `/api/v1/${path}/:address`,
      {
        config: keyOnly,
        schema: {
          tags: ['account'],
          summary: verb,
          security: apiKeyAuth,
          description: `The list holds at most ${MAX_LIST_ENTRIES} addresses (409 \`too-many-entries\`); a relay low on disk answers 507 \`storage-full\`.`,
          params: AddressParams,
          response: { 200: OkBody, ...errorResponses(400, 401, 409, 429, 507) },
        },
      },
      async (req) => {
        const caller = apiKeyCaller(req);
        await opts.checkDisk();
        await fromStore(
          store.setContact(caller.address, req.params.address.toLowerCase(), list, list, MAX_LIST_ENTRIES),
        );
        return { ok: true as const };
      },
    );
    app.delete<{ Params: { address: string } }>(
      `/api/v1/${path}/:address`,
      {
        config: keyOnly,
        schema: {
          tags: ['account'],
          summary: list === 'allow' ? 'Forget an allowed sender' : 'Unblock a sender',
          security: apiKeyAuth,
          params: AddressParams,
          response: { 200: OkBody, ...errorResponses(400, 401, 429) },
        },
      },
      async (req) => {
        await store.setContact(apiKeyCaller(req).address, req.params.address.toLowerCase(), null, list);
        return { ok: true as const };
      },
    );
  }
}
