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
  confirmPhrase: () => void;
  importWallet: (input: { mnemonic?: string; privateKey?: string; passphrase: string }) => Promise<void>;
  unlockWallet: (passphrase: string) => Promise<void>;
  connectRelay: (mode: 'local' | 'lan' | 'url', url?: string, fingerprint?: string) => Promise<void>;
  claimHandle: (handle: string) => Promise<void>;
  finishOnboarding: () => void;
  syncNow: () => Promise<void>;
}

export const createSessionSlice: StateCreator<Store, [], [], SessionSlice> = (set, get) => ({
  status: null,
  sync: null,
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
  startApp: async () => {
    const status = await call('app.status', {});
    set({
      status,
      onboarding: status.ready
        ? null
        : { step: status.hasWallet && status.unlocked ? 'relay' : 'welcome', mnemonic: null, passphrase: '' },
    });
    if (status.ready) await get().loadSession();
  },
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
  confirmPhrase: () => set({ onboarding: { step: 'relay', mnemonic: null, passphrase: '' } }),
  importWallet: async ({ mnemonic, privateKey, passphrase }) => {
    if (privateKey) await call('wallet.importPrivateKey', { privateKey, passphrase });
    else await call('wallet.importMnemonic', { mnemonic: mnemonic ?? '', passphrase });
    // an imported wallet may have a backup of its history: offered before the relay
    set({ onboarding: { step: 'restore', mnemonic: null, passphrase: '' }, status: await call('app.status', {}) });
  },
  unlockWallet: async (passphrase) => {
    const status = await call('wallet.unlock', { passphrase });
    set({ status, onboarding: status.ready ? null : { step: 'relay', mnemonic: null, passphrase: '' } });
    if (status.ready) await get().loadSession();
  },
  connectRelay: async (mode, url, fingerprint) => {
    const status = await call('relay.connect', {
      mode,
      ...(url ? { url } : {}),
      ...(fingerprint ? { fingerprint } : {}),
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
});
