import { useMemo, useState, type FormEvent } from 'react';
import { Icon } from '../components/icon.js';
import { WelcomeCard } from '../components/welcome-card.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { RelayChooser } from './relay-chooser.js';
import { RestoreBackup } from './restore-backup.js';
import { TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';

/**
 * Three positions (1-based, ascending) the user must type back, chosen at random each time so
 * that the check cannot be passed by remembering which words it asks for.
 */
function confirmPositions(count: number): number[] {
  const picked = new Set<number>();
  const r = new Uint32Array(1);
  while (picked.size < Math.min(3, count)) {
    crypto.getRandomValues(r);
    picked.add((r[0] % count) + 1);
  }
  return [...picked].sort((a, b) => a - b);
}

export function Onboarding() {
  const step = useStore((s) => s.onboarding?.step ?? 'welcome');
  return (
    <WelcomeCard icon="chat">
      {step === 'welcome' && <Welcome />}
      {step === 'create-phrase' && <ShowPhrase />}
      {step === 'create-confirm' && <ConfirmPhrase />}
      {step === 'import' && <ImportWallet />}
      {step === 'restore' && <RestoreStep />}
      {step === 'relay' && <ChooseRelay />}
      {step === 'handle' && <ClaimHandle />}
      <Steps step={step} />
    </WelcomeCard>
  );
}

function Steps({ step }: { step: string }) {
  const order = ['welcome', 'phrase', 'relay', 'handle'];
  const at = step === 'create-phrase' || step === 'create-confirm' || step === 'import' || step === 'restore' ? 1 : Math.max(0, order.indexOf(step));
  return (
    <ol className="steps" aria-label="Setup progress">
      {['Wallet', 'Recovery', 'Relay', 'Handle'].map((label, i) => (
        <li key={label} className={i < at ? 'done' : i === at ? 'current' : ''} aria-current={i === at ? 'step' : undefined}>
          {label}
        </li>
      ))}
    </ol>
  );
}

function Welcome() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const createWallet = useStore((s) => s.createWallet);
  const passphrase = useStore((s) => s.onboarding?.passphrase ?? '');
  const setPassphrase = useStore((s) => s.setOnboardingPassphrase);
  const action = useAction(createWallet);
  return (
    <section aria-labelledby="welcome-title">
      <h1 id="welcome-title">Private messages, owned by your wallet</h1>
      <p className="lead">Your address is your identity. Messages are sealed on this device before they leave it; the relay only ever carries ciphertext.</p>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(passphrase);
        }}
      >
        <PassphraseField value={passphrase} onChange={setPassphrase} />
        <FormError error={action.error} />
        <div className="row">
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy}>
            <Icon name="plus" /> {action.busy ? 'Creating…' : 'Create a new wallet'}
          </button>
          <button type="button" className="btn btn-secondary btn-lg" onClick={() => goToOnboardingStep('import')}>
            I already have a wallet
          </button>
        </div>
      </form>
    </section>
  );
}

/** The OS keychain protects the wallet in the desktop app; elsewhere a passphrase does. */
function PassphraseField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const keychain = useStore((s) => s.status?.keychain === true);
  const noSecretStore = useStore((s) => s.status?.keychainRefused === 'basic_text');
  if (keychain)
    return (
      <p className="note">
        <Icon name="shield" size={16} /> Your system keychain protects the wallet on this computer.
      </p>
    );
  return (
    <>
      {noSecretStore && (
        <p className="note" role="note">
          <Icon name="shield" size={16} /> This computer has no secret store (such as GNOME Keyring or KWallet), so the system keychain would protect your wallet only with a password built into the app. Choose a passphrase instead.
        </p>
      )}
      <label className="field">
      <span className="field-label">Passphrase for this computer (recommended)</span>
      <input type="password" aria-label="Passphrase for this computer (recommended)" aria-describedby="passphrase-hint" value={value} onChange={(e) => onChange(e.target.value)} autoComplete="new-password" />
      <span className="field-hint" id="passphrase-hint">Asked when the app starts. Without one, anyone who can read this computer’s files can open your wallet.</span>
      </label>
    </>
  );
}

function ShowPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? '');
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const [saved, setSaved] = useState(false);
  const words = mnemonic.split(' ');
  return (
    <section aria-labelledby="phrase-title">
      <h1 id="phrase-title">Write down your recovery phrase</h1>
      <p className="lead">These 12 words are the only way to restore your wallet on another computer. Anyone who has them can read your messages and speak as you. Keep them offline.</p>
      <ol className="phrase-grid" aria-label="Recovery phrase">
        {words.map((w, i) => (
          <li key={i}>
            <span className="phrase-index">{i + 1}</span>
            <span className="phrase-word">{w}</span>
          </li>
        ))}
      </ol>
      <label className="check">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <span>I have written these words down somewhere safe</span>
      </label>
      <div className="row">
        <button type="button" className="btn btn-primary btn-lg" disabled={!saved} aria-describedby={saved ? undefined : 'phrase-continue-why'} onClick={() => goToOnboardingStep('create-confirm')}>
          Continue
        </button>
        {!saved && (
          <span className="field-hint" id="phrase-continue-why">
            Tick the box once the words are written down.
          </span>
        )}
      </div>
    </section>
  );
}

function ConfirmPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? '');
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const confirmPhrase = useStore((s) => s.confirmPhrase);
  const words = useMemo(() => mnemonic.split(' '), [mnemonic]);
  const [positions] = useState(() => confirmPositions(words.length));
  const [answers, setAnswers] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = positions.filter((p) => (answers[p] ?? '').trim().toLowerCase() !== words[p - 1]);
    if (wrong.length) setError(`Word ${wrong.join(' and ')} ${wrong.length > 1 ? "don't" : "doesn't"} match. Check what you wrote down.`);
    else confirmPhrase();
  };
  return (
    <section aria-labelledby="confirm-title">
      <h1 id="confirm-title">Confirm your recovery phrase</h1>
      <p className="lead">Type the words at these positions, to be sure you have them.</p>
      <form className="stack" onSubmit={submit}>
        <div className="confirm-grid">
          {positions.map((p, i) => (
            <label key={p} className="field">
              <span className="field-label">Word {p}</span>
              <input
                value={answers[p] ?? ''}
                autoFocus={i === 0}
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                onChange={(e) => setAnswers({ ...answers, [p]: e.target.value })}
              />
            </label>
          ))}
        </div>
        <FormError error={error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={() => goToOnboardingStep('create-phrase')}>
            <Icon name="arrowLeft" /> Show the phrase again
          </button>
          <button type="submit" className="btn btn-primary btn-lg">
            Confirm
          </button>
        </div>
      </form>
    </section>
  );
}

function ImportWallet() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const importWallet = useStore((s) => s.importWallet);
  const action = useAction(importWallet);
  const [kind, setKind] = useState<'phrase' | 'key'>('phrase');
  const [secret, setSecret] = useState('');
  // typed on the welcome screen, or here: the same one (session-slice.ts)
  const passphrase = useStore((s) => s.onboarding?.passphrase ?? '');
  const setPassphrase = useStore((s) => s.setOnboardingPassphrase);
  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Import your wallet</h1>
      <p className="lead">Your secret stays on this computer. It is never sent to a relay.</p>
      <div className="segmented" role="radiogroup" aria-label="What to import">
        <label className={kind === 'phrase' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'phrase'} onChange={() => setKind('phrase')} />
          Recovery phrase
        </label>
        <label className={kind === 'key' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />
          Private key
        </label>
      </div>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const value = secret.trim();
          void action.run(kind === 'phrase' ? { mnemonic: value.toLowerCase().split(/\s+/).join(' '), passphrase } : { privateKey: value, passphrase });
        }}
      >
        {kind === 'phrase' ? (
          <label className="field">
            <span className="field-label">Recovery phrase</span>
            <textarea rows={3} value={secret} onChange={(e) => setSecret(e.target.value)} spellCheck={false} autoCapitalize="off" autoComplete="off" placeholder="twelve words separated by spaces" />
          </label>
        ) : (
          <label className="field">
            <span className="field-label">Private key</span>
            <input type="password" value={secret} onChange={(e) => setSecret(e.target.value)} spellCheck={false} autoComplete="off" placeholder="64 hex characters, with or without 0x" />
          </label>
        )}
        <PassphraseField value={passphrase} onChange={setPassphrase} />
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={() => goToOnboardingStep('welcome')}>
            <Icon name="arrowLeft" /> Back
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy || !secret.trim()} aria-describedby={secret.trim() ? undefined : 'import-why'}>
            {action.busy ? 'Importing…' : 'Import wallet'}
          </button>
          {!secret.trim() && (
            <span className="field-hint" id="import-why">
              {kind === 'phrase' ? 'Enter your recovery phrase first.' : 'Enter your private key first.'}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

function RestoreStep() {
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  return <RestoreBackup onDone={() => goToOnboardingStep('relay')} />;
}

function ChooseRelay() {
  const connectRelay = useStore((s) => s.connectRelay);
  const address = useStore((s) => s.status?.address);
  const action = useAction(connectRelay);
  return (
    <section aria-labelledby="relay-title">
      <h1 id="relay-title">Choose your relay</h1>
      <p className="lead">
        The relay passes sealed envelopes between people. {address && <>Your address is <code className="inline-code">{address}</code>.</>}
      </p>
      <RelayChooser busy={action.busy} error={action.error} submitLabel="Connect" onSubmit={(mode, url, fp) => void action.run(mode, url, fp)} />
    </section>
  );
}

function ClaimHandle() {
  const claimHandle = useStore((s) => s.claimHandle);
  const finishOnboarding = useStore((s) => s.finishOnboarding);
  const action = useAction(claimHandle);
  const [handle, setHandle] = useState('');
  const valid = TYPED_HANDLE.test(handle);
  return (
    <section aria-labelledby="handle-title">
      <h1 id="handle-title">Pick a handle</h1>
      <p className="lead">A handle lets people find you in the directory without copying your address. You can change it later.</p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(handle)).ok) finishOnboarding();
        }}
      >
        <label className="field">
          <span className="field-label">Handle</span>
          <span className="input-prefix">
            <span aria-hidden="true">@</span>
            <input aria-label="Handle" aria-describedby="handle-hint" value={bareHandle(handle)} onChange={(e) => setHandle(e.target.value)} autoFocus spellCheck={false} autoCapitalize="off" autoComplete="off" placeholder="alice" />
          </span>
          <span className="field-hint" id="handle-hint">3–32 letters, digits or underscores.</span>
        </label>
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={finishOnboarding}>
            Skip for now
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy || !valid}>
            {action.busy ? 'Claiming…' : 'Claim handle'}
          </button>
        </div>
      </form>
    </section>
  );
}
