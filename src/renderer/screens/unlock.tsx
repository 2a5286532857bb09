import { useState } from 'react';
import { FormError } from '../components/form-error.js';
import { WelcomeCard } from '../components/welcome-card.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/** The returning user's one screen: the passphrase, before anything else shows. */
export function Unlock() {
  const unlockWallet = useStore((s) => s.unlockWallet);
  const address = useStore((s) => s.status?.address);
  const action = useAction(unlockWallet);
  const [passphrase, setPassphrase] = useState('');
  return (
    <WelcomeCard icon="lock" narrow>
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
    </WelcomeCard>
  );
}
