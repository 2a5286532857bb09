import type { StateCreator } from 'zustand';
import type { AppStatus, RelayStatus, SyncStatus } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';
import { bareHandle } from '../../shared/identity-patterns.js';

export type OnboardingStep =
  'welcome' | 'create-phrase' | 'create-confirm' | 'import' | 'restore' | 'relay' | 'handle' | 'done';

export interface SessionSlice {
  status: AppStatus | null;
  sync: SyncStatus | null;
  /** the page can talk to the app (web mode: its socket is open); false while the app is gone */
  appReachable: boolean;
  appLinkChanged: (up: boolean) => void;
  /**
   * set while the user walks through onboarding, so a status change does not skip steps; the
   * passphrase typed so far lives here, not in a screen, so going from one step to another
   * (welcome → import) keeps it; it is dropped once the wallet is made
   */
  onboarding: { step: OnboardingStep; mnemonic: string | null; passphrase: string } | null;
  statusChanged: (s: AppStatus) => void;
  relayStatusChanged: (r: RelayStatus) => void;
  syncStatusChanged: (s: SyncStatus) => void;
  startApp: () => Promise<void>;
  goToOnboardingStep: (step: OnboardingStep) => void;
  setOnboardingPassphrase: (passphrase: string) => void;
  createWallet: (passphrase: string) => Promise<void>;
  /** the person typed back the words asked for: the phrase now needs the passphrase, and setup goes on */
  confirmPhrase: () => Promise<void>;
  importWallet: (input: { mnemonic?: string; privateKey?: string; passphrase: string }) => Promise<void>;
  unlockWallet: (passphrase: string) => Promise<void>;
  connectRelay: (mode: 'local' | 'lan' | 'url', url?: string, fingerprint?: string, invite?: string) => Promise<void>;
  claimHandle: (handle: string) => Promise<void>;
  finishOnboarding: () => void;
  syncNow: () => Promise<void>;
}

/**
 * Where setup goes on for this status: at the recovery phrase while it waits for its
 * confirmation (the vault gives it again until then), at the relay once the wallet is open,
 * else at the start.
 */
function setupStep(status: AppStatus): OnboardingStep {
  if (!status.hasWallet || !status.unlocked) return 'welcome';
  return status.recoveryPhrase === 'unconfirmed' ? 'create-phrase' : 'relay';
}

export const createSessionSlice: StateCreator<Store, [], [], SessionSlice> = (set, get) => {
  /** The app as this status finds it: setup where it was left, or the session once ready. */
  const resume = async (status: AppStatus): Promise<void> => {
    const step = setupStep(status);
    const done = status.ready && step !== 'create-phrase';
    set({ status, onboarding: done ? null : { step, mnemonic: null, passphrase: '' } });
    if (step === 'create-phrase') {
      const { phrase } = await call('wallet.recoveryPhrase', {});
      set((s) => (s.onboarding?.step === 'create-phrase' ? { onboarding: { ...s.onboarding, mnemonic: phrase } } : {}));
    }
    if (done) await get().loadSession();
  };
  return {
    status: null,
    sync: null,
    appReachable: true,
    appLinkChanged: (up) => {
      set({ appReachable: up });
      // back: what changed meanwhile (the relay's state above all) was never pushed to this page
      if (up && get().status)
        void call('app.status', {})
          .then((status) => set({ status }))
          .catch(() => undefined);
    },
    onboarding: null,
    statusChanged: (status) => set({ status }),
    relayStatusChanged: (relay) => set((s) => (s.status ? { status: { ...s.status, relay } } : {})),
    syncStatusChanged: (sync) => {
      const finished = get().sync?.state === 'syncing' && sync.state === 'idle';
      set({ sync });
      if (finished)
        void get()
          .refreshInvitations()
          .catch(() => undefined);
    },
    startApp: async () => resume(await call('app.status', {})),
    goToOnboardingStep: (step) =>
      set((s) => ({
        onboarding: { step, mnemonic: s.onboarding?.mnemonic ?? null, passphrase: s.onboarding?.passphrase ?? '' },
      })),
    setOnboardingPassphrase: (passphrase) =>
      set((s) => (s.onboarding ? { onboarding: { ...s.onboarding, passphrase } } : {})),
    createWallet: async (passphrase) => {
      const { mnemonic } = await call('wallet.create', { passphrase });
      set({ onboarding: { step: 'create-phrase', mnemonic, passphrase: '' } });
      set({ status: await call('app.status', {}) });
    },
    confirmPhrase: async () => {
      const status = await call('wallet.confirmPhrase', {});
      set({ status, onboarding: status.ready ? null : { step: 'relay', mnemonic: null, passphrase: '' } });
      if (status.ready) await get().loadSession();
    },
    importWallet: async ({ mnemonic, privateKey, passphrase }) => {
      if (privateKey) await call('wallet.importPrivateKey', { privateKey, passphrase });
      else await call('wallet.importMnemonic', { mnemonic: mnemonic ?? '', passphrase });
      // an imported wallet may have a backup of its history: offered before the relay
      set({ onboarding: { step: 'restore', mnemonic: null, passphrase: '' }, status: await call('app.status', {}) });
    },
    unlockWallet: async (passphrase) => resume(await call('wallet.unlock', { passphrase })),
    connectRelay: async (mode, url, fingerprint, invite) => {
      const status = await call('relay.connect', {
        mode,
        ...(url ? { url } : {}),
        ...(fingerprint ? { fingerprint } : {}),
        ...(invite ? { invite } : {}),
      });
      set({ status, onboarding: { step: status.handle ? 'done' : 'handle', mnemonic: null, passphrase: '' } });
      if (status.handle) get().finishOnboarding();
      await get().loadSession();
    },
    claimHandle: async (handle) => {
      const status = await call('profile.claimHandle', { handle: bareHandle(handle) });
      set({ status });
    },
    finishOnboarding: () => set({ onboarding: null }),
    syncNow: async () => {
      set({ sync: await call('sync.now', {}) });
    },
  };
};
