/**
 * The profile's standing with its relay, as the page sees it: the app and relay status, the
 * relay choice (parsed, checked, tried, then kept by the RelaySession in client.db: the one
 * place it is stored), and the handle claimed there. Commands `app.status`, `relay.connect`,
 * `relay.status`, `profile.claimHandle`; the Messenger's methods of the same names delegate here.
 */
import type { AppStatus, RelayStatus } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import { fingerprintProblem, parseRelayUrl } from '../../../shared/relay-address.js';
import { bareHandle } from '../../../shared/identity-patterns.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { FeatureContext, FeatureHandlers } from './feature-context.js';
import { MessengerError } from './messenger-error.js';
import type { MessengerOptions } from './messenger-options.js';
import type { ProfileWallet } from './profile-wallet.js';
import type { RelaySession } from './relay-session.js';
import type { SyncLoop } from './sync-loop.js';

export interface ConnectionDeps extends Pick<FeatureContext, 'emit' | 'ready'>, Pick<MessengerOptions, 'localRelay'> {
  vault: VaultClient;
  session: RelaySession;
  wallet: ProfileWallet;
  loop: SyncLoop;
  shell: AppStatus['shell'];
}

export class Connection {
  constructor(private readonly d: ConnectionDeps) {}

  handlers(): FeatureHandlers<'app.status' | 'relay.connect' | 'relay.status' | 'profile.claimHandle'> {
    return {
      'app.status': () => this.appStatus(),
      'relay.connect': (a) => this.connectRelay(a),
      'relay.status': async () => this.relayStatus(),
      'profile.claimHandle': (a) => this.claimHandle(a),
    };
  }

  async appStatus(): Promise<AppStatus> {
    const st = await this.d.vault.status();
    return {
      shell: this.d.shell,
      hasWallet: st.hasWallet,
      unlocked: st.unlocked,
      ready: st.unlocked && this.d.session.hasCredential(),
      address: st.address,
      handle: this.d.session.handle,
      deviceKey: st.deviceKey,
      relay: this.relayStatus(),
      recoveryPhrase: await this.d.wallet.phraseStatus(),
    };
  }

  relayStatus(): RelayStatus {
    const { session } = this.d;
    return {
      mode: session.mode,
      url: session.url,
      connected: session.connected,
      lastError: session.lastError,
      lastErrorDetail: session.lastErrorDetail,
      revoked: session.isRevoked(),
      local: this.d.localRelay?.() ?? { running: false, url: null, lan: null },
    };
  }

  /**
   * Points the profile at a relay (a resolved URL; the fingerprint pins a self-signed LAN
   * certificate). With an unlocked wallet it signs in there first and switches only when that
   * worked; a failure is thrown and the profile stays on its relay. `untried`: the shell moves
   * the profile to where its own built-in relay now listens, which is not a choice to refuse.
   */
  async connectRelay(a: CommandArgs<'relay.connect'>, opts: { untried?: boolean } = {}): Promise<AppStatus> {
    const { session, wallet, loop } = this.d;
    if (!a.url && a.mode === 'local')
      throw new MessengerError('bad-argument', 'relay.connect needs the relay URL (the shell resolves the local mode)');
    const parsed = parseRelayUrl(a.url ?? '');
    if ('problem' in parsed) throw new MessengerError('bad-argument', parsed.problem);
    if (a.mode === 'lan' && !parsed.url.startsWith('https://'))
      throw new MessengerError('bad-argument', 'A relay shared on a network uses an https:// address.');
    // a relay shared on a network is known by its pinned certificate: no fingerprint, no LAN relay
    const fingerprint = a.fingerprint?.trim() ?? (a.mode === 'lan' ? '' : undefined);
    const fpProblem = fingerprint === undefined ? null : fingerprintProblem(fingerprint);
    if (fpProblem) throw new MessengerError('bad-argument', fpProblem);
    // Tried before adopted: a mistyped or dead relay leaves the profile where it was, still syncing.
    if (wallet.unlocked && !opts.untried) {
      await session.switchTo(a.mode, parsed.url, fingerprint ?? null, a.invite).catch((e: unknown) => {
        // the sign-in started the loop; with no relay to go back to, it has nothing to do
        if (!session.hasRelay()) loop.stop();
        throw e;
      });
    } else {
      loop.stop();
      session.pointAt(a.mode, parsed.url, fingerprint ?? null, a.invite);
      if (wallet.unlocked) await session.ensureSignedIn().catch((e: unknown) => session.failed(e));
    }
    this.d.emit('relay.status', this.relayStatus());
    return this.announceStatus();
  }

  async claimHandle(a: CommandArgs<'profile.claimHandle'>): Promise<AppStatus> {
    const rec = await this.d.ready().claimHandle(bareHandle(a.handle));
    this.d.session.handle = rec.handle;
    return this.announceStatus();
  }

  private async announceStatus(): Promise<AppStatus> {
    const status = await this.appStatus();
    this.d.emit('app.status', status);
    return status;
  }
}
