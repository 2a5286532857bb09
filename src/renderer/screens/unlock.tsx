import { useState } from 'react';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** The returning user's one screen: the passphrase, before anything else shows. */
export function Unlock() {
  const unlockWallet = useStore((s) => s.unlockWallet);
  const address = useStore((s) => s.status?.address);
  const action = useAction(unlockWallet);
  const [passphrase, setPassphrase] = useState('');
  return (
    <main className="onboarding">
      <div className="onboarding-card narrow">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            <Icon name="lock" size={20} />
          </span>
          <span className="brand-name">Relay Messenger</span>
        </div>
        <h1>Unlock</h1>
        <p className="lead">{address ? <>Enter the passphrase for <code className="inline-code">{address}</code>.</> : 'Enter your passphrase.'}</p>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void action.run(passphrase);
          }}
        >
          <label className="field">
            <span className="field-label">Passphrase</span>
            <input type="password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} autoFocus autoComplete="current-password" />
          </label>
          <FormError error={action.error} />
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy}>
            {action.busy ? 'Unlocking…' : 'Unlock'}
          </button>
        </form>
      </div>
    </main>
  );
}
