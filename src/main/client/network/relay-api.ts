/**
 * Typed client for the relay's REST API (docs/protocol.md), built on the shared typebox
 * schemas: request bodies are the schemas' static types, and every answer the client relies on
 * is checked against its schema before use (RelayRequests, relay-requests.ts, makes each
 * request: credential, pacing under the rate limit, 429s, the check). Sends go in batches
 * under the relay's caps.
 */
import type { Static } from 'typebox';
import {
  ChallengeResult,
  KeyList,
  MintKeyResult,
  Policy,
  type ApiKeyMeta,
  type SignInBody,
  type UnknownSenders,
} from '../../../shared/api/account.js';
import { LIMITS } from '../../../shared/api/common.js';
import { DeviceKeys, DirectoryResult, HandleRecord, Me } from '../../../shared/api/directory.js';
import {
  BatchResults,
  GroupSendResults,
  PullResult,
  type EnvelopeInput,
  type GroupEnvelopeInput,
  type Envelope,
  type SendResult,
} from '../../../shared/api/envelopes.js';
import {
  AddMemberResult,
  GroupDetail,
  GroupList,
  GroupView,
  InvitationAnswer,
  InvitationList,
  MintTokenResult,
  type Invitation,
  type GroupSummary,
  type CreateGroupBody,
  type PatchGroupBody,
} from '../../../shared/api/groups.js';
import { StakeConfig, StakeList, StakeRecord } from '../../../shared/api/stakes.js';
import { BlobUploadResult } from '../../../shared/api/blobs.js';
import { Transform, type Readable, type Writable } from 'node:stream';
import type { HttpResponse } from './http-transport.js';
import { RelayError } from './relay-error.js';

export { NetworkError, RelayError, credentialRefused, isTransient } from './relay-error.js';
export { warmResponseChecks } from './response-checks.js';
import type { RequestPriority } from './request-pacer.js';
import { RelayRequests } from './relay-requests.js';

/** Bytes so far and the whole, for progress bars. */
export type Progress = (done: number, total: number) => void;

export class RelayApi extends RelayRequests {
  // ---- sign-in (no credential) ----

  challenge(address: string): Promise<ChallengeResult> {
    return this.call('POST', '/auth/challenge', { body: { address }, schema: ChallengeResult, auth: false });
  }

  signIn(body: SignInBody): Promise<MintKeyResult> {
    return this.call('POST', '/auth/keys', { body, schema: MintKeyResult, auth: false });
  }

  // ---- account ----

  me(): Promise<Static<typeof Me>> {
    return this.call('GET', '/me', { schema: Me });
  }

  async listKeys(): Promise<ApiKeyMeta[]> {
    return (await this.call('GET', '/me/keys', { schema: KeyList })).keys;
  }

  mintKey(label: string): Promise<MintKeyResult> {
    return this.call('POST', '/me/keys', { body: { label }, schema: MintKeyResult });
  }

  async revokeKey(id: string): Promise<void> {
    await this.call('DELETE', `/me/keys/${encodeURIComponent(id)}`, { schema: null });
  }

  async revokeDevice(publicKey: string): Promise<void> {
    await this.call('DELETE', `/devices/${encodeURIComponent(publicKey)}`, { schema: null });
  }

  claimHandle(handle: string): Promise<HandleRecord> {
    return this.call('PUT', '/me/handle', { body: { handle }, schema: HandleRecord });
  }

  getPolicy(): Promise<Policy> {
    return this.call('GET', '/me/policy', { schema: Policy });
  }

  setPolicy(unknownSenders: UnknownSenders, stake?: string): Promise<Policy> {
    return this.call('PUT', '/me/policy', {
      body: stake === undefined ? { unknownSenders } : { unknownSenders, stake },
      schema: Policy,
    });
  }

  async allow(address: string): Promise<void> {
    await this.call('PUT', `/contacts/${address}`, { schema: null });
  }

  async forget(address: string): Promise<void> {
    await this.call('DELETE', `/contacts/${address}`, { schema: null });
  }

  async block(address: string): Promise<void> {
    await this.call('PUT', `/blocks/${address}`, { schema: null });
  }

  async unblock(address: string): Promise<void> {
    await this.call('DELETE', `/blocks/${address}`, { schema: null });
  }

  // ---- directory ----

  /** null when the handle is not claimed */
  resolveHandle(handle: string): Promise<HandleRecord | null> {
    return this.call('GET', `/handles/${encodeURIComponent(handle)}`, { schema: HandleRecord, nullOn: [404] });
  }

  async directory(
    q: string,
    limit: number = LIMITS.directoryDefault,
  ): Promise<Static<typeof DirectoryResult>['results']> {
    const query = q.trim() === '' ? { limit } : { q: q.trim(), limit };
    return (await this.call('GET', '/directory', { query, schema: DirectoryResult })).results;
  }

  /** The address's certified devices; null when it has none (404). Always fresh: callers verify certificates. */
  deviceKeys(address: string, priority: RequestPriority = 'user'): Promise<DeviceKeys | null> {
    return this.call('GET', `/keys/${address}`, { schema: DeviceKeys, nullOn: [404], priority });
  }

  // ---- stakes (docs/protocol.md §13) ----

  stakeConfig(): Promise<StakeConfig> {
    return this.call('GET', '/stake-config', { schema: StakeConfig, auth: false });
  }

  async stakes(role?: 'sent' | 'received'): Promise<StakeRecord[]> {
    return (await this.call('GET', '/stakes', { query: { role }, schema: StakeList })).stakes;
  }

  stake(id: string): Promise<StakeRecord> {
    return this.call('GET', `/stakes/${id}`, { schema: StakeRecord });
  }

  /** Hands the relay our EIP-712 Release signature for the sender to submit. */
  async releaseStake(id: string, signature: string): Promise<void> {
    await this.call('POST', `/stakes/${id}/release`, { body: { signature }, schema: null });
  }

  // ---- envelopes ----

  async pull(limit: number = LIMITS.pullDefault, priority: RequestPriority = 'background'): Promise<Envelope[]> {
    return (await this.call('GET', '/envelopes', { query: { limit }, schema: PullResult, priority })).envelopes;
  }

  /**
   * Whether this relay holds pulls (docs/protocol.md §10): null until a held pull was tried,
   * then whether its answer carried `Relay-Wait`. A relay that does not is polled instead.
   */
  holdsPulls: boolean | null = null;

  /**
   * A pull held by the relay for up to `waitSeconds` (1–25) until something arrives for us.
   * A relay that does not know `wait` answers at once (or refuses the parameter with 400, and
   * is asked again without it); either way `holdsPulls` becomes false.
   */
  async heldPull(limit: number, waitSeconds: number, signal?: AbortSignal): Promise<Envelope[]> {
    let honoured = false;
    const onHeaders = (h: HttpResponse['headers']) => {
      honoured = h['relay-wait'] !== undefined;
    };
    try {
      const res = await this.call('GET', '/envelopes', {
        query: { limit, wait: waitSeconds },
        schema: PullResult,
        priority: 'background',
        timeoutMs: (waitSeconds + 15) * 1000,
        signal,
        onHeaders,
      });
      this.holdsPulls = honoured;
      return res.envelopes;
    } catch (e) {
      if (!(e instanceof RelayError && e.status === 400)) throw e;
      this.holdsPulls = false;
      return this.pull(limit);
    }
  }

  /**
   * Sends direct envelopes as batches of at most 100 (the relay's cap); results come back in
   * input order. Each batch is all-or-nothing on the relay.
   */
  async send(envelopes: EnvelopeInput[], priority: RequestPriority = 'user'): Promise<SendResult[]> {
    const out: SendResult[] = [];
    for (const chunk of chunks(envelopes)) {
      const res = await this.call('POST', '/envelopes', { body: { envelopes: chunk }, schema: BatchResults, priority });
      if (res.results.length !== chunk.length)
        throw new RelayError(502, 'relay answered a different number of send results');
      out.push(...res.results);
    }
    return out;
  }

  async ack(ids: string[], priority: RequestPriority = 'user'): Promise<number> {
    let acked = 0;
    for (let i = 0; i < ids.length; i += LIMITS.pullMax) {
      const res = await this.call('POST', '/envelopes/ack', {
        body: { ids: ids.slice(i, i + LIMITS.pullMax) },
        schema: null,
        priority,
      });
      acked += typeof (res as { acked?: unknown })?.acked === 'number' ? (res as { acked: number }).acked : 0;
    }
    return acked;
  }

  // ---- groups ----

  async listGroups(mine: boolean, limit: number = LIMITS.groupListMax, before?: string): Promise<GroupSummary[]> {
    const query = { mine: mine ? '1' : undefined, limit, before };
    return (await this.call('GET', '/groups', { query, schema: GroupList })).groups;
  }

  group(id: string, priority: RequestPriority = 'user'): Promise<GroupView> {
    return this.call('GET', `/groups/${encodeURIComponent(id)}`, { schema: GroupView, priority });
  }

  createGroup(body: CreateGroupBody): Promise<GroupDetail> {
    return this.call('POST', '/groups', { body, schema: GroupDetail });
  }

  patchGroup(id: string, body: PatchGroupBody): Promise<GroupDetail> {
    return this.call('PATCH', `/groups/${encodeURIComponent(id)}`, { body, schema: GroupDetail });
  }

  /** `status: invited` when the wallet must accept first (docs/protocol.md §12); 403 `blocked` when it refuses. */
  addMember(id: string, address: string): Promise<AddMemberResult> {
    return this.call('POST', `/groups/${encodeURIComponent(id)}/members`, {
      body: { address },
      schema: AddMemberResult,
    });
  }

  async invitations(): Promise<Invitation[]> {
    return (await this.call('GET', '/me/invitations', { schema: InvitationList })).invitations;
  }

  answerInvitation(id: string, accept: boolean): Promise<InvitationAnswer> {
    return this.call('POST', `/groups/${encodeURIComponent(id)}/invitation`, {
      body: { accept },
      schema: InvitationAnswer,
    });
  }

  async setAdmin(id: string, address: string, admin: boolean): Promise<void> {
    await this.call(admin ? 'PUT' : 'DELETE', `/groups/${encodeURIComponent(id)}/admins/${address}`, { schema: null });
  }

  async removeMember(id: string, address: string): Promise<void> {
    await this.call('DELETE', `/groups/${encodeURIComponent(id)}/members/${address}`, { schema: null });
  }

  joinGroup(id: string, password?: string): Promise<GroupDetail> {
    return this.call('POST', `/groups/${encodeURIComponent(id)}/join`, {
      body: password === undefined ? {} : { password },
      schema: GroupDetail,
    });
  }

  mintBotToken(id: string, name: string): Promise<Static<typeof MintTokenResult>> {
    return this.call('POST', `/groups/${encodeURIComponent(id)}/tokens`, { body: { name }, schema: MintTokenResult });
  }

  async revokeBotToken(id: string, tokenId: string): Promise<void> {
    await this.call('DELETE', `/groups/${encodeURIComponent(id)}/tokens/${encodeURIComponent(tokenId)}`, {
      schema: null,
    });
  }

  /** Group envelopes, in batches of at most 100; `via` tells whether the relay saw a bot token. */
  async groupSend(
    id: string,
    envelopes: GroupEnvelopeInput[],
  ): Promise<{ results: SendResult[]; via: 'group-token' | 'api-key' }> {
    const results: SendResult[] = [];
    let via: 'group-token' | 'api-key' = 'api-key';
    for (const chunk of chunks(envelopes)) {
      const res = await this.call('POST', `/groups/${encodeURIComponent(id)}/envelopes`, {
        body: { envelopes: chunk },
        schema: GroupSendResults,
      });
      if (res.results.length !== chunk.length)
        throw new RelayError(502, 'relay answered a different number of send results');
      results.push(...res.results);
      via = res.via;
    }
    return { results, via };
  }

  // ---- blobs (docs/protocol.md §14) ----

  /** Streams `length` bytes of ciphertext from `open()` (called again if a 429 is retried) to the relay. */
  uploadBlob(open: () => Readable, length: number, onProgress?: Progress): Promise<BlobUploadResult> {
    const counted = () => open().pipe(counter(length, onProgress));
    return this.call('POST', '/blobs', {
      stream: { open: counted, length, contentType: 'application/octet-stream' },
      schema: BlobUploadResult,
      timeoutMs: 60_000,
    });
  }

  /** Streams a blob into `sink`; `size` (from the message) drives the progress callback. */
  async downloadBlob(id: string, sink: Writable, size: number, onProgress?: Progress): Promise<void> {
    const through = counter(size, onProgress);
    const done = new Promise<void>((resolve, reject) => {
      through.pipe(sink);
      sink.once('finish', resolve);
      sink.once('error', reject);
    });
    await this.call('GET', `/blobs/${encodeURIComponent(id)}`, { schema: null, sink: through, timeoutMs: 60_000 });
    await done;
  }

  async deleteBlob(id: string): Promise<void> {
    await this.call('DELETE', `/blobs/${encodeURIComponent(id)}`, { schema: null });
  }
}

/** Passes bytes through, reporting how many have gone by. */
function counter(total: number, onProgress?: Progress): Transform {
  let done = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      done += chunk.length;
      onProgress?.(done, total);
      cb(null, chunk);
    },
  });
}

function chunks<T>(items: T[]): T[][] {
  if (items.length === 0) return [];
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  // stay well under the relay's 1 MiB body cap as well as its 100-envelope cap
  const maxBytes = LIMITS.bodyMaxBytes - 64 * 1024;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (current.length > 0 && (current.length >= LIMITS.batchMax || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  out.push(current);
  return out;
}
