import { useEffect, useState } from 'react';
import { Amount } from '../components/amount.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** Settings: the chain stakes live on, our balance there, and our own RPC URL for it. */
export function StakeChain() {
  const chain = useStore((s) => s.stakes.chain);
  const loadStakeChain = useStore((s) => s.loadStakeChain);
  const setStakeRpcUrl = useStore((s) => s.setStakeRpcUrl);
  const showToast = useStore((s) => s.showToast);
  const save = useAction(setStakeRpcUrl);
  const [url, setUrl] = useState('');
  useEffect(() => {
    loadStakeChain().then((c) => setUrl(c.rpcUrlOverridden ? (c.rpcUrl ?? '') : ''), () => undefined);
  }, [loadStakeChain]);
  if (!chain?.enabled) return null;
  return (
    <section className="card section" aria-labelledby="stake-chain-title">
      <h2 id="stake-chain-title">Stakes</h2>
      <dl className="facts">
        <div>
          <dt>Chain</dt>
          <dd>
            {chain.chainId} <code className="inline-code">{chain.escrow}</code>
          </dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd>{chain.balanceWei !== null ? <Amount wei={chain.balanceWei} currency={chain.currency} /> : (chain.balanceError ?? 'unknown')}</dd>
        </div>
      </dl>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await save.run(url.trim() === '' ? null : url.trim())).ok) showToast('success', 'Stake chain RPC URL saved.');
        }}
      >
        <label className="field">
          <span className="field-label">RPC URL</span>
          <input aria-label="Stake chain RPC URL" value={url} placeholder={chain.relayRpcUrls[0] ?? 'https://…'} onChange={(e) => setUrl(e.target.value)} />
          <span className="field-hint">Empty: the relay&apos;s ({chain.relayRpcUrls[0] ?? 'none offered'}).</span>
        </label>
        <FormError error={save.error} />
        <div className="row">
          <button type="submit" className="btn btn-secondary btn-sm" disabled={save.busy}>
            Save RPC URL
          </button>
        </div>
      </form>
    </section>
  );
}
