/**
 * The account's settings on the relay: this wallet's devices (and their history answers), its
 * API keys and its inbox policy (docs/protocol.md, Devices, API keys, Inbox policy).
 */
import type { ApiKeyMeta } from '../../../shared/api/account.js';
import type { ApiKeyInfo, DeviceInfo, InboxPolicy } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import type { FeatureContext, FeatureHandlers } from '../core/feature-context.js';
import { MessengerError } from '../core/messenger-error.js';
import type { HistoryTransfer } from '../history/history-transfer.js';
import { keepCertified } from '../trust/certified-devices.js';
import type { Trust } from '../trust/trust.js';

type AccountCommands =
  'devices.list' | 'devices.revoke' | 'apiKeys.list' | 'apiKeys.mint' | 'apiKeys.revoke' | 'policy.get' | 'policy.set';

export interface AccountDeps extends FeatureContext {
  trust: Trust;
  history: HistoryTransfer;
  /** this profile's identity, null before a wallet exists */
  whoami(): { deviceKey: string } | null;
}

export class Account {
  constructor(private readonly ctx: AccountDeps) {}

  handlers(): FeatureHandlers<AccountCommands> {
    return {
      'devices.list': () => this.listDevices(),
      'devices.revoke': (a) => this.revokeDevice(a),
      'apiKeys.list': () => this.listApiKeys(),
      'apiKeys.mint': (a) => this.mintApiKey(a),
      'apiKeys.revoke': (a) => this.revokeApiKey(a),
      'policy.get': () => this.getPolicy(),
      'policy.set': (a) => this.setPolicy(a),
    };
  }

  async listDevices(): Promise<DeviceInfo[]> {
    const me = this.ctx.me();
    const res = await this.ctx.ready().deviceKeys(me.address);
    this.ctx.trust.observe(me.address, keepCertified(me.address, res?.devices ?? []));
    const answers = this.ctx.history.answers();
    return (res?.devices ?? []).map((d) => {
      const publicKey = d.publicKey.toLowerCase();
      return {
        publicKey,
        createdAt: d.createdAt,
        current: publicKey === me.deviceKey,
        history: answers[publicKey] ?? null,
      };
    });
  }

  async revokeDevice(a: CommandArgs<'devices.revoke'>): Promise<void> {
    const key = a.publicKey.toLowerCase();
    // Revoking the device in use would leave this profile signed out with no way back in from
    // here: refused, so that it is done from another device (or by a fresh sign-in elsewhere).
    if (key === this.ctx.whoami()?.deviceKey.toLowerCase()) {
      throw new MessengerError(
        'bad-argument',
        'that is the device you are using; revoke it from another device (this one would be signed out and could not sign in again)',
      );
    }
    await this.ctx.ready().revokeDevice(key);
  }

  async listApiKeys(): Promise<ApiKeyInfo[]> {
    return (await this.ctx.ready().listKeys()).map(apiKeyInfo);
  }

  async mintApiKey(a: CommandArgs<'apiKeys.mint'>): Promise<{ apiKey: string; key: ApiKeyInfo }> {
    const res = await this.ctx.ready().mintKey(a.label);
    return { apiKey: res.apiKey, key: apiKeyInfo(res.key) };
  }

  async revokeApiKey(a: CommandArgs<'apiKeys.revoke'>): Promise<void> {
    await this.ctx.ready().revokeKey(a.id.toLowerCase());
  }

  async getPolicy(): Promise<InboxPolicy> {
    const p = await this.ctx.ready().getPolicy();
    return { unknownSenders: p.unknownSenders, stake: p.stake ?? null };
  }

  async setPolicy(a: CommandArgs<'policy.set'>): Promise<InboxPolicy> {
    const p = await this.ctx
      .ready()
      .setPolicy(a.unknownSenders, a.unknownSenders === 'stake-gate' ? a.stake : undefined);
    return { unknownSenders: p.unknownSenders, stake: p.stake ?? null };
  }
}

function apiKeyInfo(k: ApiKeyMeta): ApiKeyInfo {
  return {
    id: k.id,
    label: k.label,
    prefix: k.prefix,
    deviceKey: k.deviceKey,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}
