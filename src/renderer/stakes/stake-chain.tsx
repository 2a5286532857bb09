import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Amount } from './amount.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/** not words: a space, and the shape of a URL, the same in every language */
const GAP = ' ';
const URL_SHAPE = 'https://…';

/** Settings: the chain stakes live on, our balance there, and our own RPC URL for it. */
export function StakeChain() {
  const chain = useStore((s) => s.stakes.chain);
  const loadStakeChain = useStore((s) => s.loadStakeChain);
  const setStakeRpcUrl = useStore((s) => s.setStakeRpcUrl);
  const showToast = useStore((s) => s.showToast);
  const save = useAction(setStakeRpcUrl);
  const [url, setUrl] = useState('');
  const intl = useIntl();
  useEffect(() => {
    loadStakeChain().then(
      (c) => setUrl(c.rpcUrlOverridden ? (c.rpcUrl ?? '') : ''),
      () => undefined,
    );
  }, [loadStakeChain]);
  if (!chain?.enabled) return null;
  return (
    <section className="card section" aria-labelledby="stake-chain-title">
      <h2 id="stake-chain-title">
        <FormattedMessage
          id="stakeChain.title"
          defaultMessage="Stakes"
          description="Heading of the stakes section in Settings"
        />
      </h2>
      <dl className="facts">
        <div>
          <dt>
            <FormattedMessage
              id="stakeChain.chain"
              defaultMessage="Chain"
              description="Label in Settings: the blockchain’s number and the escrow contract’s address"
            />
          </dt>
          <dd>
            <bdi dir="ltr">{chain.chainId}</bdi>
            {GAP}
            <code className="inline-code" dir="ltr">
              {chain.escrow}
            </code>
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage
              id="stakeChain.balance"
              defaultMessage="Balance"
              description="Label in Settings: one’s balance on the stake chain"
            />
          </dt>
          <dd>
            {chain.balanceWei !== null ? (
              <Amount wei={chain.balanceWei} currency={chain.currency} />
            ) : (
              (chain.balanceError ?? (
                <FormattedMessage
                  id="stakeChain.balanceUnknown"
                  defaultMessage="unknown"
                  description="In Settings when the balance could not be read and no reason is known"
                />
              ))
            )}
          </dd>
        </div>
      </dl>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await save.run(url.trim() === '' ? null : url.trim())).ok)
            showToast(
              'success',
              intl.formatMessage({
                id: 'stakeChain.saved',
                defaultMessage: 'Stake chain RPC URL saved.',
                description: 'Toast after saving one’s own RPC URL for the stake chain',
              }),
            );
        }}
      >
        <label className="field">
          <span className="field-label">
            <FormattedMessage
              id="stakeChain.rpc.label"
              defaultMessage="RPC URL"
              description="Field label in Settings: the address of a blockchain node (RPC) to use for stakes"
            />
          </span>
          <input
            aria-label={intl.formatMessage({
              id: 'stakeChain.rpc.accessibleLabel',
              defaultMessage: 'Stake chain RPC URL',
              description: 'Accessible name of the RPC URL field in Settings',
            })}
            dir="ltr"
            value={url}
            placeholder={chain.relayRpcUrls[0] ?? URL_SHAPE}
            onChange={(e) => setUrl(e.target.value)}
          />
          <span className="field-hint">
            {chain.relayRpcUrls[0] ? (
              <FormattedMessage
                id="stakeChain.rpc.hint"
                defaultMessage="Empty: the relay's ({url})."
                description="Hint under the RPC URL field: left empty, the relay’s URL is used; {url} is that URL"
                values={{ url: <bdi dir="ltr">{chain.relayRpcUrls[0]}</bdi> }}
              />
            ) : (
              <FormattedMessage
                id="stakeChain.rpc.hintNone"
                defaultMessage="Empty: the relay's (none offered)."
                description="Hint under the RPC URL field when the relay offers no URL"
              />
            )}
          </span>
        </label>
        <FormError error={save.error} />
        <div className="row">
          <button type="submit" className="btn btn-secondary btn-sm" disabled={save.busy}>
            <FormattedMessage
              id="stakeChain.rpc.save"
              defaultMessage="Save RPC URL"
              description="Button that saves the RPC URL"
            />
          </button>
        </div>
      </form>
    </section>
  );
}
