/**
 * A group bot: posts text into a group with a creator-issued `gtk_live_` token. The bot has a
 * wallet of its own (in a small profile folder, kept in a vault like any other) and signs
 * the message as itself; it seals one copy per current member device (certificates
 * verified) and posts them with the token. The relay records the group creator as sender
 * with `via: group-token`; receivers show the bot's own address as the author.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VaultClient } from '../../vault/worker/vault-client.js';
import { composeFields } from '../messages/message-body.js';
import { effectivePassphrase } from '../store/profile-passphrase.js';
import { RelayApi } from '../network/relay-api.js';
import { verifyInParallel } from '../trust/certified-devices.js';
import { certifiedMemberDevices, envelopesFor } from '../messages/sealed-envelopes.js';

export interface BotPostOptions {
  relayUrl: string;
  fingerprint?: string | null;
  token: string;
  groupId: string;
  text: string;
  /** the bot's profile folder (created with a new wallet on first use); default: a throw-away one */
  profileDir?: string | null;
  passphrase: string;
}

export interface BotPostResult {
  messageId: string;
  /** the bot's own address: the author receivers show */
  from: string;
  groupId: string;
  /** how the relay saw the post (group-token) */
  via: 'group-token' | 'api-key';
  /** the group creator, whom the relay names as sender */
  relaySender: string;
  devices: Array<{ address: string; deviceKey: string; routed: string }>;
}

export async function postAsBot(o: BotPostOptions): Promise<BotPostResult> {
  const temp = o.profileDir ? null : mkdtempSync(join(tmpdir(), 'relay-bot-'));
  const vault = new VaultClient({ profileDir: o.profileDir ?? temp! });
  const api = new RelayApi({ baseUrl: o.relayUrl, fingerprint: o.fingerprint ?? null, credential: o.token });
  try {
    const passphrase = effectivePassphrase(o.passphrase);
    const st = await vault.status();
    const address = st.hasWallet
      ? (await vault.unlock({ passphrase })).address!
      : (await vault.createWallet({ passphrase })).address;
    const groupId = o.groupId.toLowerCase();
    const view = await api.group(groupId);
    await verifyInParallel(view.memberDevices, vault);
    const targets = certifiedMemberDevices(view.memberDevices);
    const id = globalThis.crypto.randomUUID();
    if (targets.length === 0)
      return {
        messageId: id,
        from: address,
        groupId,
        via: view.auth.via,
        relaySender: view.auth.senderAddress,
        devices: [],
      };
    const sealed = await vault.sealMessage({
      frame: 'group',
      groupId,
      // no `device`: a bot is a wallet, not a registered device; its signature is its credential
      message: composeFields({ id, sentAt: new Date().toISOString(), kind: 'text', text: o.text }),
      recipients: targets.map((t) => ({ deviceKey: t.deviceKey })),
    });
    const res = await api.groupSend(groupId, envelopesFor(sealed.sealed, targets));
    return {
      messageId: sealed.id,
      from: address,
      groupId,
      via: res.via,
      relaySender: view.auth.senderAddress,
      devices: targets.map((t, i) => ({ ...t, routed: res.results[i].routed })),
    };
  } finally {
    api.close();
    await vault.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}
