import { useState } from 'react';
import { FormError } from '../components/form-error.js';
import { fingerprintProblem, parseRelayUrl } from '../../shared/relay-address.js';
import { Icon, type IconName } from '../components/icon.js';

type Mode = 'local' | 'lan' | 'url';

const OPTIONS: { mode: Mode; icon: IconName; title: string; text: string }[] = [
  { mode: 'local', icon: 'laptop', title: 'This computer', text: 'Run a relay inside the app. Best for trying things out and for sharing with people on your network.' },
  { mode: 'lan', icon: 'wifi', title: 'A relay on my network', text: 'Someone nearby shares their relay. You need its address and fingerprint.' },
  { mode: 'url', icon: 'globe', title: 'A relay address', text: 'A relay run by your team or a provider, reached by its URL.' },
];

export function RelayChooser({
  busy,
  error,
  submitLabel,
  initialMode = 'local',
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  error: string | null;
  submitLabel: string;
  initialMode?: Mode;
  onSubmit: (mode: Mode, url?: string, fingerprint?: string) => void;
  onCancel?: () => void;
}) {
  const [mode, setMode] = useState<Mode>(initialMode);
  const [url, setUrl] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const needsUrl = mode !== 'local';
  const parsed = parseRelayUrl(url);
  const urlProblem = 'problem' in parsed ? parsed.problem : null;
  const fpProblem = mode === 'lan' ? fingerprintProblem(fingerprint) : null;
  // Whatever keeps the button off is said under its field as it is typed, and the button points
  // to it (aria-describedby): a greyed-out Connect never leaves one guessing.
  const urlShown = needsUrl && urlProblem !== null;
  const fpShown = fpProblem !== null;
  const why = [urlShown ? 'relay-url-problem' : null, fpShown ? 'fingerprint-problem' : null].filter(Boolean).join(' ');
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(mode, needsUrl ? url.trim() : undefined, mode === 'lan' ? fingerprint.trim() : undefined);
      }}
    >
      <div className="choice-list" role="radiogroup" aria-label="Relay">
        {OPTIONS.map((o) => (
          <label key={o.mode} className={mode === o.mode ? 'choice selected' : 'choice'}>
            <input type="radio" name="relay-mode" value={o.mode} checked={mode === o.mode} onChange={() => setMode(o.mode)} aria-label={o.title} />
            <span className="choice-icon" aria-hidden="true">
              <Icon name={o.icon} size={20} />
            </span>
            <span className="choice-text">
              <span className="choice-title">
                {o.title}
                {o.mode === 'local' && <span className="pill">Recommended</span>}
              </span>
              <span className="choice-desc">{o.text}</span>
            </span>
          </label>
        ))}
      </div>
      {needsUrl && (
        <label className="field">
          <span className="field-label">Relay URL</span>
          <input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder={mode === 'lan' ? 'https://192.168.1.20:7443' : 'https://relay.example.org'}
            spellCheck={false}
            autoCapitalize="off"
            autoFocus
            aria-invalid={url.trim() && urlProblem ? true : undefined}
            aria-describedby={urlShown ? 'relay-url-problem' : undefined}
          />
          {urlShown && (
            <span className={url.trim() ? 'field-problem' : 'field-hint'} id="relay-url-problem">
              {urlProblem}
            </span>
          )}
        </label>
      )}
      {mode === 'lan' && (
        <label className="field">
          <span className="field-label">Fingerprint</span>
          <input
            aria-label="Fingerprint"
            aria-describedby={fpShown ? 'fingerprint-problem fingerprint-hint' : 'fingerprint-hint'}
            aria-invalid={fpShown && fingerprint.trim() ? true : undefined}
            value={fingerprint}
            onChange={(e) => setFingerprint(e.target.value)}
            placeholder="SHA-256 fingerprint shown by the sharing computer"
            spellCheck={false}
            autoCapitalize="off"
          />
          {fpShown && (
            <span className={fingerprint.trim() ? 'field-problem' : 'field-hint'} id="fingerprint-problem">
              {fpProblem}
            </span>
          )}
          <span className="field-hint" id="fingerprint-hint">The app checks the relay's certificate against it, so nobody else on the network can pretend to be that relay.</span>
        </label>
      )}
      <FormError error={error} />
      <div className="row">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy || urlShown || fpProblem !== null} aria-describedby={why || undefined}>
          {busy ? 'Connecting…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost btn-lg" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
