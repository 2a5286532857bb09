import { FormattedMessage, useIntl } from 'react-intl';
import { useMemo, useState, type FormEvent } from 'react';
import { Icon } from '../components/icon.js';
import { WelcomeCard } from './welcome-card.js';
import { FormError } from '../components/form-error.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { RelayChooser } from './relay-chooser.js';
import { RestoreBackup } from '../backup/restore-backup.js';
import { TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';

/** The handle's sigil before the field: a symbol, the same in every language. */
const HANDLE_PREFIX = '@';
/** An example handle: a name, not a word to translate. */
const EXAMPLE_HANDLE = 'alice';

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
  const intl = useIntl();
  const at =
    step === 'create-phrase' || step === 'create-confirm' || step === 'import' || step === 'restore'
      ? 1
      : Math.max(0, order.indexOf(step));
  return (
    <ol
      className="steps"
      aria-label={intl.formatMessage({
        id: 'onboarding.steps.label',
        defaultMessage: 'Setup progress',
        description: 'Accessible name of the list of setup steps.',
      })}
    >
      {[
        intl.formatMessage({
          id: 'onboarding.steps.wallet',
          defaultMessage: 'Wallet',
          description: 'Setup step 1: make or import a wallet.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.recovery',
          defaultMessage: 'Recovery',
          description: 'Setup step 2: the recovery phrase.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.relay',
          defaultMessage: 'Relay',
          description: 'Setup step 3: choose a relay.',
        }),
        intl.formatMessage({
          id: 'onboarding.steps.handle',
          defaultMessage: 'Handle',
          description: 'Setup step 4: pick a handle (a public name).',
        }),
      ].map((label, i) => (
        <li
          key={label}
          className={i < at ? 'done' : i === at ? 'current' : ''}
          aria-current={i === at ? 'step' : undefined}
        >
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
  const intl = useIntl();
  return (
    <section aria-labelledby="welcome-title">
      <h1 id="welcome-title">
        <FormattedMessage
          id="onboarding.welcome.title"
          defaultMessage="Private messages, owned by your wallet"
          description="Heading of the first screen of the app."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.welcome.lead"
          defaultMessage="Your address is your identity. Messages are sealed on this device before they leave it; the relay only ever carries ciphertext."
          description="Introduction on the first screen."
        />
      </p>
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
            <Icon name="plus" />{' '}
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.welcome.creating',
                  defaultMessage: 'Creating…',
                  description: 'Create button while the wallet is being made.',
                })
              : intl.formatMessage({
                  id: 'onboarding.welcome.create',
                  defaultMessage: 'Create a new wallet',
                  description: 'Button that makes a new wallet.',
                })}
          </button>
          <button type="button" className="btn btn-secondary btn-lg" onClick={() => goToOnboardingStep('import')}>
            <FormattedMessage
              id="onboarding.welcome.import"
              defaultMessage="I already have a wallet"
              description="Button that leads to importing an existing wallet."
            />
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
  const intl = useIntl();
  const passLabel = intl.formatMessage({
    id: 'onboarding.passphrase.label',
    defaultMessage: 'Passphrase for this computer (recommended)',
    description: 'Label of the passphrase that locks the wallet on this computer.',
  });
  if (keychain)
    return (
      <p className="note">
        <Icon name="shield" size={16} />{' '}
        <FormattedMessage
          id="onboarding.passphrase.keychain"
          defaultMessage="Your system keychain protects the wallet on this computer."
          description="Note when the OS keychain protects the wallet, so no passphrase is asked."
        />
      </p>
    );
  return (
    <>
      {noSecretStore && (
        <p className="note" role="note">
          <Icon name="shield" size={16} />{' '}
          <FormattedMessage
            id="onboarding.passphrase.noSecretStore"
            defaultMessage="This computer has no secret store (such as GNOME Keyring or KWallet), so the system keychain would protect your wallet only with a password built into the app. Choose a passphrase instead."
            description="Note on Linux desktops without a keyring service."
          />
        </p>
      )}
      <label className="field">
        <span className="field-label">{passLabel}</span>
        <input
          type="password"
          aria-label={passLabel}
          aria-describedby="passphrase-hint"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="new-password"
        />
        <span className="field-hint" id="passphrase-hint">
          <FormattedMessage
            id="onboarding.passphrase.hint"
            defaultMessage="Asked when the app starts. Without one, anyone who can read this computer’s files can open your wallet."
            description="Hint under the passphrase field."
          />
        </span>
      </label>
    </>
  );
}

function ShowPhrase() {
  const mnemonic = useStore((s) => s.onboarding?.mnemonic ?? '');
  const goToOnboardingStep = useStore((s) => s.goToOnboardingStep);
  const [saved, setSaved] = useState(false);
  const words = mnemonic.split(' ');
  const intl = useIntl();
  return (
    <section aria-labelledby="phrase-title">
      <h1 id="phrase-title">
        <FormattedMessage
          id="onboarding.phrase.title"
          defaultMessage="Write down your recovery phrase"
          description="Heading of the screen showing the 12 recovery words."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.phrase.lead"
          defaultMessage="These {count, number} words are the only way to restore your wallet on another computer. Anyone who has them can read your messages and speak as you. Keep them offline."
          description="Explains the recovery phrase; count is the number of words (12)."
          values={{ count: words.length }}
        />
      </p>
      <ol
        className="phrase-grid"
        aria-label={intl.formatMessage({
          id: 'onboarding.phrase.list',
          defaultMessage: 'Recovery phrase',
          description: 'Accessible name of the list of recovery words.',
        })}
        dir="ltr"
      >
        {words.map((w, i) => (
          <li key={i}>
            <span className="phrase-index">{intl.formatNumber(i + 1)}</span>
            <span className="phrase-word">{w}</span>
          </li>
        ))}
      </ol>
      <label className="check">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <span>
          <FormattedMessage
            id="onboarding.phrase.saved"
            defaultMessage="I have written these words down somewhere safe"
            description="Checkbox the person ticks after writing the words down."
          />
        </span>
      </label>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary btn-lg"
          disabled={!saved}
          aria-describedby={saved ? undefined : 'phrase-continue-why'}
          onClick={() => goToOnboardingStep('create-confirm')}
        >
          <FormattedMessage
            id="onboarding.phrase.continue"
            defaultMessage="Continue"
            description="Button to the next setup step."
          />
        </button>
        {!saved && (
          <span className="field-hint" id="phrase-continue-why">
            <FormattedMessage
              id="onboarding.phrase.continueWhy"
              defaultMessage="Tick the box once the words are written down."
              description="Why Continue is disabled."
            />
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
  const intl = useIntl();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wrong = positions.filter((p) => (answers[p] ?? '').trim().toLowerCase() !== words[p - 1]);
    if (wrong.length)
      setError(
        intl.formatMessage(
          {
            id: 'onboarding.confirm.wrong',
            defaultMessage:
              "{count, plural, one {Word {words} doesn't match.} other {Words {words} don't match.}} Check what you wrote down.",
            description: 'Error when typed recovery words are wrong; words is a list of positions such as “3 and 7”.',
          },
          {
            count: wrong.length,
            words: intl.formatList(
              wrong.map((n) => intl.formatNumber(n)),
              { type: 'conjunction' },
            ),
          },
        ),
      );
    else confirmPhrase();
  };
  return (
    <section aria-labelledby="confirm-title">
      <h1 id="confirm-title">
        <FormattedMessage
          id="onboarding.confirm.title"
          defaultMessage="Confirm your recovery phrase"
          description="Heading of the screen that asks for three of the recovery words."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.confirm.lead"
          defaultMessage="Type the words at these positions, to be sure you have them."
          description="Introduction of the recovery phrase check."
        />
      </p>
      <form className="stack" onSubmit={submit}>
        <div className="confirm-grid">
          {positions.map((p, i) => (
            <label key={p} className="field">
              <span className="field-label">
                <FormattedMessage
                  id="onboarding.confirm.word"
                  defaultMessage="Word {position, number}"
                  description="Label of the field for one recovery word; position is 1 to 12."
                  values={{ position: p }}
                />
              </span>
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
            <Icon name="arrowLeft" />{' '}
            <FormattedMessage
              id="onboarding.confirm.back"
              defaultMessage="Show the phrase again"
              description="Button back to the recovery words."
            />
          </button>
          <button type="submit" className="btn btn-primary btn-lg">
            <FormattedMessage
              id="onboarding.confirm.submit"
              defaultMessage="Confirm"
              description="Button that checks the typed recovery words."
            />
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
  const intl = useIntl();
  const phraseLabel = intl.formatMessage({
    id: 'onboarding.import.phrase',
    defaultMessage: 'Recovery phrase',
    description: 'Choice and field label: import with the 12-word recovery phrase.',
  });
  const keyLabel = intl.formatMessage({
    id: 'onboarding.import.key',
    defaultMessage: 'Private key',
    description: 'Choice and field label: import with a private key.',
  });
  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">
        <FormattedMessage
          id="onboarding.import.title"
          defaultMessage="Import your wallet"
          description="Heading of the import screen."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.import.lead"
          defaultMessage="Your secret stays on this computer. It is never sent to a relay."
          description="Reassurance on the import screen."
        />
      </p>
      <div
        className="segmented"
        role="radiogroup"
        aria-label={intl.formatMessage({
          id: 'onboarding.import.kind',
          defaultMessage: 'What to import',
          description: 'Accessible name of the choice between recovery phrase and private key.',
        })}
      >
        <label className={kind === 'phrase' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'phrase'} onChange={() => setKind('phrase')} />
          {phraseLabel}
        </label>
        <label className={kind === 'key' ? 'active' : ''}>
          <input type="radio" name="import-kind" checked={kind === 'key'} onChange={() => setKind('key')} />
          {keyLabel}
        </label>
      </div>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const value = secret.trim();
          void action.run(
            kind === 'phrase'
              ? { mnemonic: value.toLowerCase().split(/\s+/).join(' '), passphrase }
              : { privateKey: value, passphrase },
          );
        }}
      >
        {kind === 'phrase' ? (
          <label className="field">
            <span className="field-label">{phraseLabel}</span>
            <textarea
              rows={3}
              dir="ltr"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder={intl.formatMessage({
                id: 'onboarding.import.phrasePlaceholder',
                defaultMessage: 'twelve words separated by spaces',
                description:
                  'Placeholder of the recovery phrase field (the words themselves are English BIP-39 words).',
              })}
            />
          </label>
        ) : (
          <label className="field">
            <span className="field-label">{keyLabel}</span>
            <input
              type="password"
              dir="ltr"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              spellCheck={false}
              autoComplete="off"
              placeholder={intl.formatMessage({
                id: 'onboarding.import.keyPlaceholder',
                defaultMessage: '64 hex characters, with or without 0x',
                description: 'Placeholder of the private key field.',
              })}
            />
          </label>
        )}
        <PassphraseField value={passphrase} onChange={setPassphrase} />
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={() => goToOnboardingStep('welcome')}>
            <Icon name="arrowLeft" />{' '}
            <FormattedMessage
              id="onboarding.import.back"
              defaultMessage="Back"
              description="Button back to the first screen."
            />
          </button>
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={action.busy || !secret.trim()}
            aria-describedby={secret.trim() ? undefined : 'import-why'}
          >
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.import.importing',
                  defaultMessage: 'Importing…',
                  description: 'Import button while importing.',
                })
              : intl.formatMessage({
                  id: 'onboarding.import.submit',
                  defaultMessage: 'Import wallet',
                  description: 'Button that imports the wallet.',
                })}
          </button>
          {!secret.trim() && (
            <span className="field-hint" id="import-why">
              {kind === 'phrase'
                ? intl.formatMessage({
                    id: 'onboarding.import.phraseWhy',
                    defaultMessage: 'Enter your recovery phrase first.',
                    description: 'Why Import is disabled (no phrase typed).',
                  })
                : intl.formatMessage({
                    id: 'onboarding.import.keyWhy',
                    defaultMessage: 'Enter your private key first.',
                    description: 'Why Import is disabled (no key typed).',
                  })}
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
  const intl = useIntl();
  return (
    <section aria-labelledby="relay-title">
      <h1 id="relay-title">
        <FormattedMessage
          id="onboarding.relay.title"
          defaultMessage="Choose your relay"
          description="Heading of the relay step."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.relay.lead"
          defaultMessage="The relay passes sealed envelopes between people."
          description="What a relay is."
        />{' '}
        {address && (
          <FormattedMessage
            id="onboarding.relay.address"
            defaultMessage="Your address is <code>{address}</code>."
            description="Shows the new wallet address; keep the code tags."
            values={{
              address,
              code: (chunks) => (
                <code className="inline-code" dir="ltr">
                  {chunks}
                </code>
              ),
            }}
          />
        )}
      </p>
      <RelayChooser
        busy={action.busy}
        error={action.error}
        submitLabel={intl.formatMessage({
          id: 'onboarding.relay.connect',
          defaultMessage: 'Connect',
          description: 'Button that connects to the chosen relay.',
        })}
        onSubmit={(mode, url, fp) => void action.run(mode, url, fp)}
      />
    </section>
  );
}

function ClaimHandle() {
  const claimHandle = useStore((s) => s.claimHandle);
  const finishOnboarding = useStore((s) => s.finishOnboarding);
  const action = useAction(claimHandle);
  const [handle, setHandle] = useState('');
  const valid = TYPED_HANDLE.test(handle);
  const intl = useIntl();
  const handleLabel = intl.formatMessage({
    id: 'onboarding.handle.label',
    defaultMessage: 'Handle',
    description: 'Label of the handle field.',
  });
  return (
    <section aria-labelledby="handle-title">
      <h1 id="handle-title">
        <FormattedMessage
          id="onboarding.handle.title"
          defaultMessage="Pick a handle"
          description="Heading of the handle step."
        />
      </h1>
      <p className="lead">
        <FormattedMessage
          id="onboarding.handle.lead"
          defaultMessage="A handle lets people find you in the directory without copying your address. You can change it later."
          description="What a handle is."
        />
      </p>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(handle)).ok) finishOnboarding();
        }}
      >
        <label className="field">
          <span className="field-label">{handleLabel}</span>
          <span className="input-prefix" dir="ltr">
            <span aria-hidden="true">{HANDLE_PREFIX}</span>
            <input
              aria-label={handleLabel}
              aria-describedby="handle-hint"
              value={bareHandle(handle)}
              onChange={(e) => setHandle(e.target.value)}
              autoFocus
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder={EXAMPLE_HANDLE}
            />
          </span>
          <span className="field-hint" id="handle-hint">
            <FormattedMessage
              id="onboarding.handle.hint"
              defaultMessage="3–32 letters, digits or underscores."
              description="Rule for handles."
            />
          </span>
        </label>
        <FormError error={action.error} />
        <div className="row">
          <button type="button" className="btn btn-ghost" onClick={finishOnboarding}>
            <FormattedMessage
              id="onboarding.handle.skip"
              defaultMessage="Skip for now"
              description="Button that finishes setup without a handle."
            />
          </button>
          <button type="submit" className="btn btn-primary btn-lg" disabled={action.busy || !valid}>
            {action.busy
              ? intl.formatMessage({
                  id: 'onboarding.handle.claiming',
                  defaultMessage: 'Claiming…',
                  description: 'Claim button while claiming.',
                })
              : intl.formatMessage({
                  id: 'onboarding.handle.claim',
                  defaultMessage: 'Claim handle',
                  description: 'Button that claims the typed handle.',
                })}
          </button>
        </div>
      </form>
    </section>
  );
}
