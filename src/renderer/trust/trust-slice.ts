import type { StateCreator } from 'zustand';
import type { ContactTrust, DeviceNotice, SafetyNumberInfo } from '../../shared/trust.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/** Safety numbers as main computes them; the page only shows them (it does no crypto). */
export interface TrustSlice {
  /** per address (lower-case): the verified mark, a pending change, the device notices */
  trustByAddress: Record<string, ContactTrust>;
  /** whose Verify dialog is open */
  verifyingAddress: string | null;
  loadTrust: (address: string) => Promise<void>;
  deviceNoticeReceived: (n: DeviceNotice) => void;
  openVerify: (address: string) => void;
  closeVerify: () => void;
  safetyNumber: (address: string) => Promise<SafetyNumberInfo>;
  /** true: verified against their devices now; false: no mark (also "send anyway" after a change) */
  verifyContact: (address: string, verified: boolean) => Promise<SafetyNumberInfo>;
}

export const createTrustSlice: StateCreator<Store, [], [], TrustSlice> = (set, get) => ({
  trustByAddress: {},
  verifyingAddress: null,
  loadTrust: async (address) => {
    const t = await call('contacts.trust', { address });
    set((s) => ({ trustByAddress: { ...s.trustByAddress, [t.address]: t } }));
  },
  // main has already changed the mark: read it again rather than guess
  deviceNoticeReceived: (n) =>
    void get()
      .loadTrust(n.address)
      .catch(() => undefined),
  openVerify: (address) => set({ verifyingAddress: address.toLowerCase() }),
  closeVerify: () => set({ verifyingAddress: null }),
  safetyNumber: (address) => call('contacts.safetyNumber', { address }),
  verifyContact: async (address, verified) => {
    const info = await call('contacts.verify', { address, verified });
    await get().loadTrust(address);
    return info;
  },
});
