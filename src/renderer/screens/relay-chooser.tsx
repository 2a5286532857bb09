import { useState } from 'react';
import { Icon, type IconName } from '../components/icon.js';

type Mode = 'local' | 'lan' | 'url';

const OPTIONS: { mode: Mode; icon: IconName; title: string; text: string }[] = [
  { mode: 'local', icon: 'laptop', title: 'This computer', text: 'Run a relay inside the app. Best for trying things out and for sharing with people on your network.' },
  { mode: 'lan', icon: 'wifi', title: 'A relay on my network', text: 'Someone nearby shares their relay. You need its address and fingerprint.' },
  { mode: 'url', icon: 'globe', title: 'A relay address', text: 'A relay run by your team or a provider, reached by its URL.' },
];

export function RelayChooser({ busy, error, submitLabel, onSubmit }: { busy: boolean; error: string | null; submitLabel: string; onSubmit: (mode: Mode, url?: string, fingerprint?: string) => void }) {
  const [mode, setMode] = useState<Mode>('local');
  const [url, setUrl] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const needsUrl = mode !== 'local';
  const urlOk = /^https?:\/\/\S+$/.test(url.trim());
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
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder={mode === 'lan' ? 'https://192.168.1.20:7443' : 'https://relay.example.org'} spellCheck={false} autoCapitalize="off" autoFocus />
        </label>
      )}
      {mode === 'lan' && (
        <label className="field">
          <span className="field-label">Fingerprint</span>
          <input aria-label="Fingerprint" aria-describedby="fingerprint-hint" value={fingerprint} onChange={(e) => setFingerprint(e.target.value)} placeholder="SHA-256 fingerprint shown by the sharing computer" spellCheck={false} autoCapitalize="off" />
          <span className="field-hint" id="fingerprint-hint">The app checks the relay's certificate against it, so nobody else on the network can pretend to be that relay.</span>
        </label>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="row">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy || (needsUrl && !urlOk) || (mode === 'lan' && fingerprint.trim().length < 8)}>
          {busy ? 'Connecting…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
