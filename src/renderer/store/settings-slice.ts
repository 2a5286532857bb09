import type { StateCreator } from 'zustand';
import type { ApiKeyInfo, DeviceInfo, InboxPolicy } from '../../shared/domain.js';
import { call } from '../bridge.js';
import type { Store } from './store.js';

export interface SettingsSlice {
  settings: { devices: DeviceInfo[]; apiKeys: ApiKeyInfo[]; policy: InboxPolicy | null; loaded: boolean };
  settingsRequested: () => Promise<void>;
  deviceRevoked: (publicKey: string) => Promise<void>;
  apiKeyMinted: (label: string) => Promise<string>;
  apiKeyRevoked: (id: string) => Promise<void>;
  policyChanged: (p: { unknownSenders: InboxPolicy['unknownSenders']; stake?: string }) => Promise<void>;
  localRelayToggled: (enabled: boolean) => Promise<void>;
  lanSharingToggled: (enabled: boolean) => Promise<void>;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set, get) => {
  const patch = (p: Partial<SettingsSlice['settings']>) => set((s) => ({ settings: { ...s.settings, ...p } }));
  return {
    settings: { devices: [], apiKeys: [], policy: null, loaded: false },
    settingsRequested: async () => {
      const [devices, apiKeys, policy, relay] = await Promise.all([
        call('devices.list', {}),
        call('apiKeys.list', {}),
        call('policy.get', {}),
        call('relay.status', {}),
      ]);
      patch({ devices, apiKeys, policy, loaded: true });
      get().relayStatusChanged(relay);
    },
    deviceRevoked: async (publicKey) => {
      await call('devices.revoke', { publicKey });
      patch({ devices: await call('devices.list', {}) });
    },
    apiKeyMinted: async (label) => {
      const { apiKey } = await call('apiKeys.mint', { label });
      patch({ apiKeys: await call('apiKeys.list', {}) });
      return apiKey;
    },
    apiKeyRevoked: async (id) => {
      await call('apiKeys.revoke', { id });
      patch({ apiKeys: await call('apiKeys.list', {}) });
    },
    policyChanged: async (p) => {
      patch({ policy: await call('policy.set', p) });
    },
    localRelayToggled: async (enabled) => {
      get().relayStatusChanged(await call('relay.setLocal', { enabled }));
    },
    lanSharingToggled: async (enabled) => {
      get().relayStatusChanged(await call('relay.shareOnLan', { enabled }));
    },
  };
};
