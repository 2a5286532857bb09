import type { StateCreator } from 'zustand';
import type { ApiKeyInfo, DeviceInfo, InboxPolicy } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

export interface SettingsSlice {
  settings: { devices: DeviceInfo[]; apiKeys: ApiKeyInfo[]; policy: InboxPolicy | null; loaded: boolean };
  loadSettings: () => Promise<void>;
  /**
   * this wallet's devices changed (one added on another computer, or revoked): the list, and so
   * Settings' offer to send the history to a new one, follows at once, not at the next visit
   */
  ownDevicesChanged: () => Promise<void>;
  /** main now records the device's answer to the history offer; the list changes without fetching it again */
  deviceHistoryAnswered: (deviceKey: string, history: 'sent' | 'declined') => void;
  revokeDevice: (publicKey: string) => Promise<void>;
  mintApiKey: (label: string) => Promise<string>;
  revokeApiKey: (id: string) => Promise<void>;
  setPolicy: (p: { unknownSenders: InboxPolicy['unknownSenders']; stake?: string }) => Promise<void>;
  setLocalRelay: (enabled: boolean) => Promise<void>;
  /** signs in to another relay; what waits in the outbox goes out there */
  switchRelay: (mode: 'local' | 'lan' | 'url', url?: string, fingerprint?: string, invite?: string) => Promise<void>;
  setLanSharing: (enabled: boolean) => Promise<void>;
  /**
   * The recovery phrase, against the passphrase (main checks it; where the OS keychain protects
   * the wallet none is asked): for the screen that shows it, never kept in the store.
   */
  revealRecoveryPhrase: (passphrase: string) => Promise<string[] | null>;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set, get) => {
  const patch = (p: Partial<SettingsSlice['settings']>) => set((s) => ({ settings: { ...s.settings, ...p } }));
  return {
    settings: { devices: [], apiKeys: [], policy: null, loaded: false },
    loadSettings: async () => {
      const [devices, apiKeys, policy, relay] = await Promise.all([
        call('devices.list', {}),
        call('apiKeys.list', {}),
        call('policy.get', {}),
        call('relay.status', {}),
      ]);
      patch({ devices, apiKeys, policy, loaded: true });
      get().relayStatusChanged(relay);
    },
    ownDevicesChanged: async () => {
      if (!get().settings.loaded) return;
      patch({ devices: await call('devices.list', {}) });
    },
    revealRecoveryPhrase: async (passphrase) => {
      const { phrase } = await call('wallet.recoveryPhrase', { passphrase });
      return phrase === null ? null : phrase.split(' ');
    },
    deviceHistoryAnswered: (deviceKey, history) =>
      set((s) => ({
        settings: {
          ...s.settings,
          devices: s.settings.devices.map((d) => (d.publicKey === deviceKey ? { ...d, history } : d)),
        },
      })),
    revokeDevice: async (publicKey) => {
      await call('devices.revoke', { publicKey });
      // the relay revoked the device's API keys with it: both lists change at once
      const [devices, apiKeys] = await Promise.all([call('devices.list', {}), call('apiKeys.list', {})]);
      patch({ devices, apiKeys });
    },
    mintApiKey: async (label) => {
      const { apiKey } = await call('apiKeys.mint', { label });
      patch({ apiKeys: await call('apiKeys.list', {}) });
      return apiKey;
    },
    revokeApiKey: async (id) => {
      await call('apiKeys.revoke', { id });
      patch({ apiKeys: await call('apiKeys.list', {}) });
    },
    setPolicy: async (p) => {
      patch({ policy: await call('policy.set', p) });
    },
    setLocalRelay: async (enabled) => {
      get().relayStatusChanged(await call('relay.setLocal', { enabled }));
    },
    switchRelay: async (mode, url, fingerprint, invite) => {
      const status = await call('relay.connect', {
        mode,
        ...(url ? { url } : {}),
        ...(fingerprint ? { fingerprint } : {}),
        ...(invite ? { invite } : {}),
      });
      get().statusChanged(status);
      // the switch is done; lists that fail to load now say so on their own
      get()
        .loadSettings()
        .catch((e: Error) => get().showToast('error', e.message));
    },
    setLanSharing: async (enabled) => {
      get().relayStatusChanged(await call('relay.shareOnLan', { enabled }));
    },
  };
};
