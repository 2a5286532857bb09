import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { PhraseList } from '../onboarding/phrase-list.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * Settings → Security: the recovery phrase shown again, after the passphrase that protects it
 * (none is asked where the OS keychain protects the wallet). A wallet imported from a private
 * key has no phrase, and this says so.
 */
export function SettingsSecurity() {
  const phrase = useStore((s) => s.status?.recoveryPhrase ?? null);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Back to the button once the dialog has left the page: while it is open the page behind is
  // inert and cannot take focus, and a dialog removed while open gives none back by itself.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <section className="card section" aria-labelledby="security-title">
      <h2 id="security-title">
        <FormattedMessage
          id="settings.security.title"
          defaultMessage="Security"
          description="Settings section: the recovery phrase."
        />
      </h2>
      {phrase === 'none' ? (
        <p className="subtle small">
          <FormattedMessage
            id="settings.security.noPhrase"
            defaultMessage="This wallet was imported from a private key, so it has no recovery phrase. Keep that key somewhere safe: it is the only way to restore this wallet on another computer."
            description="In Settings → Security for a wallet imported from a private key."
          />
        </p>
      ) : (
        <>
          <p className="subtle small">
            <FormattedMessage
              id="settings.security.lead"
              defaultMessage="Your recovery phrase restores this wallet on another computer. Anyone who sees it can read your messages and speak as you: show it only where nobody is looking."
              description="In Settings → Security, before the button that shows the recovery phrase."
            />
          </p>
          <div className="row">
            <button ref={button} type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
              <FormattedMessage
                id="settings.security.show"
                defaultMessage="Show recovery phrase"
                description="Button in Settings → Security that asks for the passphrase, then shows the recovery phrase."
              />
            </button>
          </div>
        </>
      )}
      {open && <RevealPhrase onClose={() => setOpen(false)} />}
    </section>
  );
}

/** The passphrase asked for, then the words; they live only as long as this dialog does. */
function RevealPhrase({ onClose }: { onClose: () => void }) {
  const keychain = useStore((s) => s.status?.keychain === true);
  const reveal = useStore((s) => s.revealRecoveryPhrase);
  const action = useAction(reveal);
  const [passphrase, setPassphrase] = useState('');
  const [words, setWords] = useState<string[] | null>(null);
  const intl = useIntl();
  const title = intl.formatMessage({
    id: 'settings.security.dialogTitle',
    defaultMessage: 'Show recovery phrase',
    description: 'Title of the dialog that shows the recovery phrase after the passphrase.',
  });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = await action.run(passphrase);
    setPassphrase('');
    if (r.ok) setWords(r.value);
  };
  return (
    <Dialog title={title} open onClose={onClose}>
      {words ? (
        <div className="stack">
          <PhraseList words={words} />
          <p className="subtle small">
            <FormattedMessage
              id="settings.security.shown"
              defaultMessage="Write these words down and keep them offline. Closing this window hides them again."
              description="Under the recovery phrase shown in Settings → Security."
            />
          </p>
          <div className="row end">
            <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
              <FormattedMessage
                id="settings.security.done"
                defaultMessage="Done"
                description="Button that closes the recovery phrase dialog and hides the words."
              />
            </button>
          </div>
        </div>
      ) : (
        <form className="stack" onSubmit={submit}>
          {keychain ? (
            <p>
              <FormattedMessage
                id="settings.security.keychain"
                defaultMessage="Your system keychain protects this wallet, so no passphrase is asked. Make sure nobody else can see your screen."
                description="In the recovery phrase dialog when the OS keychain protects the wallet."
              />
            </p>
          ) : (
            <label className="field">
              <span className="field-label">
                <FormattedMessage
                  id="settings.security.passphrase"
                  defaultMessage="Passphrase"
                  description="Label of the passphrase field in the recovery phrase dialog."
                />
              </span>
              <input
                type="password"
                value={passphrase}
                onChange={(e) => setPassphrase(e.target.value)}
                autoComplete="current-password"
                autoFocus
              />
            </label>
          )}
          <FormError error={action.error} />
          <div className="row end">
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              <FormattedMessage
                id="settings.security.cancel"
                defaultMessage="Cancel"
                description="Button that closes the recovery phrase dialog without showing the words."
              />
            </button>
            <button type="submit" className="btn btn-primary" disabled={action.busy}>
              <FormattedMessage
                id="settings.security.reveal"
                defaultMessage="Show phrase"
                description="Button that checks the passphrase and shows the recovery phrase."
              />
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
