import { useEffect, useState } from 'react';
import type { InboxPolicy } from '../../shared/domain.js';
import { Avatar } from '../components/avatar.js';
import { CopyButton } from '../components/copy-button.js';
import { Icon } from '../components/icon.js';
import { ErrorDetails } from '../components/error-details.js';
import { FormError } from '../components/form-error.js';
import { SecretKeyList } from '../components/secret-key-list.js';
import { Switch } from '../components/switch.js';
import { listTime, shortAddress } from '../format.js';
import { useStore } from '../store/store.js';
import type { ThemeChoice } from '../store/ui-slice.js';
import { useAction } from '../use-action.js';
import { NotificationSettings } from './notification-settings.js';
import { RelayChooser } from './relay-chooser.js';
import { TYPED_HANDLE, bareHandle } from '../../shared/identity-patterns.js';
import { StakeChain } from './stake-chain.js';
import { OwnDeviceNotices } from './own-device-notices.js';
import { ExportBackup } from './export-backup.js';
import { HistoryTransfer } from './history-transfer.js';

export function Settings() {
  const loadSettings = useStore((s) => s.loadSettings);
  const showToast = useStore((s) => s.showToast);
  useEffect(() => {
    loadSettings().catch((e: Error) => showToast('error', e.message));
  }, [loadSettings, showToast]);
  return (
    <div className="page settings">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <Profile />
      <Policy />
      <NotificationSettings />
      <Relay />
      <StakeChain />
      <Devices />
      <ApiKeys />
      <ExportBackup />
      <Appearance />
    </div>
  );
}

function Profile() {
  const status = useStore((s) => s.status);
  const claimHandle = useStore((s) => s.claimHandle);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(claimHandle);
  const [handle, setHandle] = useState(status?.handle ?? '');
  if (!status?.address) return null;
  const valid = TYPED_HANDLE.test(handle) && bareHandle(handle).toLowerCase() !== (status.handle ?? '').toLowerCase();
  return (
    <section className="card section" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <div className="profile-head">
        <Avatar name={status.handle ?? status.address} seed={status.address} size={52} />
        <div>
          <div className="profile-name">{status.handle ? `@${status.handle}` : 'No handle yet'}</div>
          <div className="row tight">
            <code className="inline-code" data-copy-source={status.address}>
              {status.address}
            </code>
            <CopyButton text={status.address} label="Copy your address" />
          </div>
        </div>
      </div>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(handle)).ok) showToast('success', 'Handle saved.');
        }}
      >
        <label className="field grow">
          <span className="field-label">Handle</span>
          <span className="input-prefix">
            <span aria-hidden="true">@</span>
            <input aria-label="Handle" value={bareHandle(handle)} onChange={(e) => setHandle(e.target.value)} spellCheck={false} autoCapitalize="off" placeholder="alice" />
          </span>
        </label>
        <button type="submit" className="btn btn-secondary" disabled={!valid || action.busy}>
          {status.handle ? 'Change handle' : 'Claim handle'}
        </button>
      </form>
      <FormError error={action.error} />
    </section>
  );
}

const POLICIES: { value: InboxPolicy['unknownSenders']; title: string; text: string }[] = [
  { value: 'request', title: 'Ask me first', text: 'New people land in Requests. You accept, decline or block.' },
  { value: 'stake-gate', title: 'Ask for a stake', text: 'New people must put down a small refundable stake before their message is delivered.' },
  { value: 'block', title: 'Only contacts', text: 'Messages from people you have not accepted are refused.' },
];

function Policy() {
  const policy = useStore((s) => s.settings.policy);
  const setPolicy = useStore((s) => s.setPolicy);
  const showToast = useStore((s) => s.showToast);
  const action = useAction(setPolicy);
  const [choice, setChoice] = useState<InboxPolicy['unknownSenders']>('request');
  const [stake, setStake] = useState('0.01');
  // Follow the saved policy when it loads or changes, not each time Settings reloads it: a
  // reload with the same values must not undo a choice the user has not saved yet.
  const savedChoice = policy?.unknownSenders;
  const savedStake = policy?.stake;
  useEffect(() => {
    if (savedChoice) {
      setChoice(savedChoice);
      setStake(savedStake ?? '0.01');
    }
  }, [savedChoice, savedStake]);
  const stakeOk = /^(0|[1-9][0-9]{0,17})(\.[0-9]{1,18})?$/.test(stake) && Number(stake) > 0;
  const dirty = policy && (choice !== policy.unknownSenders || (choice === 'stake-gate' && stake !== (policy.stake ?? '0.01')));
  const stakeBad = choice === 'stake-gate' && !stakeOk;
  return (
    <section className="card section" aria-labelledby="policy-title">
      <h2 id="policy-title">Messages from new people</h2>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run({ unknownSenders: choice, ...(choice === 'stake-gate' ? { stake } : {}) })).ok) showToast('success', 'Inbox policy saved.');
        }}
      >
        <div className="choice-list compact" role="radiogroup" aria-label="Messages from new people">
          {POLICIES.map((p) => (
            <label key={p.value} className={choice === p.value ? 'choice selected' : 'choice'}>
              {/* until the saved policy is known, a choice would be overwritten when it arrives */}
              <input type="radio" name="policy" checked={choice === p.value} onChange={() => setChoice(p.value)} aria-label={p.title} disabled={!policy} />
              <span className="choice-text">
                <span className="choice-title">{p.title}</span>
                <span className="choice-desc">{p.text}</span>
              </span>
            </label>
          ))}
        </div>
        {choice === 'stake-gate' && (
          <label className="field narrow-field">
            <span className="field-label">Stake amount</span>
            <span className="input-suffix">
              <input aria-label="Stake amount" value={stake} onChange={(e) => setStake(e.target.value.trim())} inputMode="decimal" />
              <span aria-hidden="true">ETH</span>
            </span>
            {!stakeOk && (
              <span className="field-hint danger" id="stake-problem">
                Enter an amount like 0.01.
              </span>
            )}
          </label>
        )}
        <FormError error={action.error} />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={!dirty || action.busy || stakeBad} aria-describedby={stakeBad ? 'stake-problem' : !dirty ? 'policy-unchanged' : undefined}>
            Save policy
          </button>
          {!dirty && !stakeBad && (
            <span className="field-hint" id="policy-unchanged">
              Nothing to save: this is the policy in use.
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

function Relay() {
  const relay = useStore((s) => s.status?.relay);
  const setLocalRelay = useStore((s) => s.setLocalRelay);
  const setLanSharing = useStore((s) => s.setLanSharing);
  const switchRelay = useStore((s) => s.switchRelay);
  const showToast = useStore((s) => s.showToast);
  const local = useAction(setLocalRelay);
  const lan = useAction(setLanSharing);
  const switching = useAction(switchRelay);
  const [changing, setChanging] = useState(false);
  if (!relay) return null;
  const modeText = relay.mode === 'local' ? 'This computer' : relay.mode === 'lan' ? 'A relay on your network' : relay.mode === 'url' ? 'A relay address' : 'Not chosen';
  return (
    <section className="card section" aria-labelledby="relay-title">
      <h2 id="relay-title">Relay</h2>
      <dl className="facts">
        <div>
          <dt>Connected to</dt>
          <dd>
            {modeText}
            {relay.url && <code className="inline-code">{relay.url}</code>}
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span className={relay.connected ? 'conn online' : 'conn offline'}>
              <span className="dot" aria-hidden="true" />
              {relay.revoked ? 'This device was revoked' : relay.connected ? 'Connected' : relay.lastError ? `Offline: ${relay.lastError}` : 'Offline'}
            </span>
            {!relay.connected && !relay.revoked && <ErrorDetails detail={relay.lastErrorDetail} />}
          </dd>
        </div>
      </dl>
      {changing ? (
        <div className="relay-switch">
          <p className="subtle small">
            You sign in to the new relay with your wallet. Messages waiting to be sent go out there, and your conversations stay on this computer. A handle belongs to one relay:
            claim yours again on the new one, under Profile.
          </p>
          <RelayChooser
            busy={switching.busy}
            // the switch is tried before it is made: a failed one changed nothing
            error={switching.error && relay.url ? `${switching.error} You are still on ${relay.url}.` : switching.error}
            submitLabel="Switch relay"
            initialMode={relay.mode === 'local' ? 'url' : 'local'}
            onCancel={() => setChanging(false)}
            onSubmit={async (mode, url, fp) => {
              if ((await switching.run(mode, url, fp)).ok) {
                setChanging(false);
                showToast('success', 'Switched relay.');
              }
            }}
          />
        </div>
      ) : (
        <div className="row">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setChanging(true)}>
            Change relay
          </button>
        </div>
      )}
      <div className="toggle-row">
        <div>
          <div className="toggle-title">Run a relay on this computer</div>
          <div className="subtle small">{relay.local.running ? `Running at ${relay.local.url ?? '…'}` : 'Stopped'}</div>
        </div>
        <Switch label="Run a relay on this computer" checked={relay.local.running} busy={local.busy} onChange={(v) => void local.run(v)} />
      </div>
      <FormError error={local.error} />
      <div className="toggle-row">
        <div>
          <div className="toggle-title">Share on my network</div>
          <div className="subtle small">Let people on the same Wi-Fi or office network use this relay.</div>
        </div>
        <Switch label="Share on my network" checked={relay.local.lan !== null} busy={lan.busy} disabled={!relay.local.running} disabledReason="Turn on “Run a relay on this computer” first: this shares that relay." onChange={(v) => void lan.run(v)} />
      </div>
      <FormError error={lan.error} />
      {relay.local.lan && (
        <div className="lan-box" aria-label="Network sharing details">
          <p className="small">Give these to people who want to connect. They choose “A relay on my network” and enter both.</p>
          {relay.local.lan.urls.map((u) => (
            <div key={u} className="row tight">
              <code className="inline-code" data-copy-source={u}>
                {u}
              </code>
              <CopyButton text={u} label={`Copy ${u}`} />
            </div>
          ))}
          <div className="row tight">
            <span className="small subtle">Fingerprint</span>
            <code className="inline-code fingerprint" data-copy-source={relay.local.lan.fingerprint}>
              {relay.local.lan.fingerprint}
            </code>
            <CopyButton text={relay.local.lan.fingerprint} label="Copy fingerprint" />
          </div>
        </div>
      )}
    </section>
  );
}

function Devices() {
  const devices = useStore((s) => s.settings.devices);
  const address = useStore((s) => s.status?.address ?? null);
  const revokeDevice = useStore((s) => s.revokeDevice);
  const action = useAction(revokeDevice);
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section className="card section" aria-labelledby="devices-title">
      <h2 id="devices-title">Devices</h2>
      <p className="subtle small">Each device has its own encryption key, certified by your wallet. Revoke a device you no longer use: it is signed out of the relay, its waiting messages are deleted and it receives nothing new.</p>
      <p className="note warn-note small" id="revoke-limits">
        <Icon name="alert" size={16} />
        <span>
          Revoking does not take your wallet away from that device. Every installation holds your wallet key, so a revoked one can sign in again as you. If a device was lost or stolen, move to a new wallet and tell your contacts your new address.
        </span>
      </p>
      <KeychainNote />
      {address && <OwnDeviceNotices address={address} />}
      <HistoryTransfer />
      <ul className="plain-list" aria-label="Devices">
        {devices.map((d) => (
          <li key={d.publicKey} className="device-row">
            <Icon name={d.current ? 'laptop' : 'key'} size={18} />
            <div className="grow">
              <div>
                <code className="inline-code">{shortAddress(d.publicKey)}</code> {d.current && <span className="pill">This device</span>}
              </div>
              <div className="subtle small">Added {listTime(d.createdAt)}</div>
            </div>
            {!d.current && confirming !== d.publicKey && (
              <button type="button" className="btn btn-danger-ghost btn-sm" onClick={() => setConfirming(d.publicKey)} aria-label={`Revoke device ${d.publicKey.slice(0, 8)}`}>
                Revoke
              </button>
            )}
            {!d.current && confirming === d.publicKey && (
              // Revoking cannot be undone: the device is signed out and stops receiving at once.
              <div className="row" role="group" aria-label={`Confirm revoking device ${d.publicKey.slice(0, 8)}`}>
                <span className="small">Sign it out for good?</span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(null)}>
                  Cancel
                </button>
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  disabled={action.busy}
                  onClick={async () => {
                    if ((await action.run(d.publicKey)).ok) setConfirming(null);
                  }}
                >
                  Revoke device
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <FormError error={action.error} />
    </section>
  );
}

/** Why the desktop app asks for a passphrase on this computer, or how weak its keychain protection is. */
function KeychainNote() {
  const status = useStore((s) => s.status);
  if (status?.keychainRefused !== 'basic_text') return null;
  if (status.keychain)
    return (
      <p className="note warn-note small" role="note">
        <Icon name="alert" size={16} />
        <span>
          This computer has no secret store (such as GNOME Keyring or KWallet), so the key that locks your wallet here is protected only by a password built into the app. Anyone who can read your files can open it. Install a secret store, or move to a new wallet protected by a passphrase.
        </span>
      </p>
    );
  return (
    <p className="note small" role="note">
      <Icon name="shield" size={16} />
      <span>Your passphrase protects the wallet on this computer: it has no secret store (such as GNOME Keyring or KWallet), and the fallback would be a password built into the app.</span>
    </p>
  );
}

function ApiKeys() {
  const keys = useStore((s) => s.settings.apiKeys);
  const myDevice = useStore((s) => s.status?.deviceKey?.toLowerCase() ?? null);
  const mintApiKey = useStore((s) => s.mintApiKey);
  const revokeApiKey = useStore((s) => s.revokeApiKey);
  return (
    <section className="card section" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="subtle small">For scripts and integrations that act as you on the relay. Treat a key like a password.</p>
      <SecretKeyList
        what="API key"
        listLabel="API keys"
        icon="key"
        items={keys.map((k) => {
          const mine = k.deviceKey?.toLowerCase() === myDevice;
          // This device's own key is how the app talks to the relay: revoke the device instead.
          return { ...k, name: k.label, tag: k.deviceKey ? (mine ? 'This device' : 'Device') : undefined, revocable: !mine };
        })}
        nameLabel="Key label"
        placeholder="CI notifier"
        nameRequired={false}
        mintLabel="Create key"
        mintIcon="plus"
        emptyText="No API keys yet."
        onMint={mintApiKey}
        onRevoke={revokeApiKey}
      />
    </section>
  );
}

function Appearance() {
  const theme = useStore((s) => s.theme);
  const chooseTheme = useStore((s) => s.chooseTheme);
  const options: { value: ThemeChoice; label: string }[] = [
    { value: 'system', label: 'Match system' },
    { value: 'light', label: 'Light' },
    { value: 'dark', label: 'Dark' },
  ];
  return (
    <section className="card section" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <div className="segmented" role="radiogroup" aria-label="Theme">
        {options.map((o) => (
          <label key={o.value} className={theme === o.value ? 'active' : ''}>
            <input type="radio" name="theme" checked={theme === o.value} onChange={() => chooseTheme(o.value)} />
            {o.label}
          </label>
        ))}
      </div>
    </section>
  );
}
