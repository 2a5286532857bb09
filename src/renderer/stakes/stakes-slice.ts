import { defineMessage } from 'react-intl';
import type { StateCreator } from 'zustand';
import type { StakeInfo, StakeSettings } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import { DescribedError } from '../i18n/described-error.js';
import type { Store } from '../store.js';

/** Stakes (docs/protocol.md §13 Stakes): what this wallet sent and received, and the chain they live on. */
export interface StakesSlice {
  stakes: { list: StakeInfo[]; chain: StakeSettings | null; loaded: boolean };
  loadStakes: () => Promise<void>;
  /** the relay's chain and our balance there (without the list) */
  loadStakeChain: () => Promise<StakeSettings>;
  /** deposits the stake a gate asked for and sends the message with it */
  payStake: (messageId: string) => Promise<void>;
  refundStake: (id: string) => Promise<void>;
  /** a staked request is spam: its stake comes to us, the sender is blocked */
  markSpam: (address: string) => Promise<void>;
  setStakeRpcUrl: (url: string | null) => Promise<void>;
}

export const createStakesSlice: StateCreator<Store, [], [], StakesSlice> = (set, get) => {
  const patch = (p: Partial<StakesSlice['stakes']>) => set((s) => ({ stakes: { ...s.stakes, ...p } }));
  return {
    stakes: { list: [], chain: null, loaded: false },
    loadStakes: async () => {
      const chain = await call('stakes.settings', {});
      patch({ chain, list: chain.enabled ? await call('stakes.list', {}) : [], loaded: true });
    },
    loadStakeChain: async () => {
      const chain = await call('stakes.settings', {});
      patch({ chain });
      return chain;
    },
    payStake: async (messageId) => {
      const { message } = await call('stakes.pay', { messageId });
      get().messageUpdated(message);
      if (get().stakes.loaded) await get().loadStakes();
    },
    refundStake: async (id) => {
      const updated = await call('stakes.refund', { id });
      set((s) => ({ stakes: { ...s.stakes, list: s.stakes.list.map((x) => (x.id === updated.id ? updated : x)) } }));
      await get().loadStakeChain();
    },
    markSpam: async (address) => {
      await call('requests.spam', { address });
      get().requestRemoved(address);
      if (get().stakes.loaded) await get().loadStakes();
    },
    setStakeRpcUrl: async (url) => {
      const chainId = get().stakes.chain?.chainId;
      if (!chainId)
        throw new DescribedError(
          defineMessage({
            id: 'stakeChain.noStakes',
            defaultMessage: 'This relay takes no stakes.',
            description: 'Error when saving an RPC URL while the relay names no chain for stakes',
          }),
        );
      patch({ chain: await call('stakes.setRpcUrl', { chainId, url }) });
    },
  };
};
