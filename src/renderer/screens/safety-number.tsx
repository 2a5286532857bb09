import { useEffect, useState } from 'react';
import type { DeviceNotice, SafetyNumberInfo } from '../../shared/trust.js';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { fullTime, shortAddress } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * Safety numbers in the app: the Verify dialog (the number, its QR code, "Mark as verified"),
 * the badge of a verified contact, the notices when someone's devices change, and the
 * question before the first message after such a change. Main computes everything; this
 * only draws it.
 */

/** "You verified this contact's safety number": a shield, not the relay operator's rosette. */
export function SafetyVerifiedBadge({ address }: { address: string }) {
  const verified = useStore((s) => s.trustByAddress[address.toLowerCase()]?.verified ?? false);
  if (!verified) return null;
  return (
    <span className="safety-verified" title="You verified the safety number" role="img" aria-label="Safety number verified">
      <Icon name="shieldCheck" size={15} />
    </span>
  );
}

/** The header's Verify button; the dialog it opens. */
export function VerifyButton({ address, name }: { address: string; name: string }) {
  const a = address.toLowerCase();
  const open = useStore((s) => s.verifyingAddress === a);
  const openVerify = useStore((s) => s.openVerify);
  const closeVerify = useStore((s) => s.closeVerify);
  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => openVerify(a)}>
        <Icon name="shield" size={15} /> Verify
      </button>
      <Dialog title={`Verify ${name}`} open={open} onClose={closeVerify}>
        {open && <VerifyBody address={a} name={name} onClose={closeVerify} />}
      </Dialog>
    </>
  );
}

function VerifyBody({ address, name, onClose }: { address: string; name: string; onClose: () => void }) {
  const safetyNumber = useStore((s) => s.safetyNumber);
  const verifyContact = useStore((s) => s.verifyContact);
  const [info, setInfo] = useState<SafetyNumberInfo | null>(null);
  const load = useAction(safetyNumber);
  const mark = useAction(verifyContact);
  useEffect(() => {
    void load.run(address).then((r) => r.ok && setInfo(r.value));
    // load once per opening
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address]);
  if (!info) return load.error ? <FormError error={load.error} /> : <p className="subtle" aria-busy="true">Computing the safety number…</p>;
  const groups = info.digits.match(/\d{5}/g) ?? [];
  return (
    <div className="stack">
      <p className="subtle small">
        Compare this number with the one {name} sees for you, in person or on a call you trust, or scan each other’s code. If they match, your messages reach {name}’s own devices and no one else’s.
      </p>
      {info.changed && (
        <p className="note warn-note small" role="alert">
          <Icon name="alert" size={16} />
          <span>{name}’s devices changed after you verified them. Compare the number again.</span>
        </p>
      )}
      <div className="safety-panel">
        <QrCode rows={info.qr} label={`QR code of your safety number with ${name}`} />
        <p className="safety-digits" aria-label={`Safety number: ${groups.join(' ')}`}>
          {groups.map((g, i) => (
            <span key={i}>{g}</span>
          ))}
        </p>
      </div>
      <p className="subtle small">
        {name} has {info.theirDevices} device{info.theirDevices === 1 ? '' : 's'}, you have {info.myDevices}. The number changes when either of you adds or removes one.
      </p>
      {info.verified && info.verifiedAt && (
        <p className="row small safety-verified-note">
          <Icon name="shieldCheck" size={16} /> Verified {fullTime(info.verifiedAt)}
        </p>
      )}
      <FormError error={mark.error} />
      <div className="row end">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
        {info.verified ? (
          <button type="button" className="btn btn-secondary" disabled={mark.busy} onClick={async () => {
            const r = await mark.run(address, false);
            if (r.ok) setInfo(r.value);
          }}>
            Remove verification
          </button>
        ) : (
          <button type="button" className="btn btn-primary" disabled={mark.busy} onClick={async () => {
            const r = await mark.run(address, true);
            if (r.ok) setInfo(r.value);
          }}>
            Mark as verified
          </button>
        )}
      </div>
    </div>
  );
}

/** Draws main's module rows (1 = dark) with the 4-module quiet zone; dark on white whatever the theme, so it scans. */
function QrCode({ rows, label }: { rows: string[]; label: string }) {
  const n = rows.length + 8;
  const d = rows.flatMap((row, y) => [...row].flatMap((m, x) => (m === '1' ? [`M${x + 4} ${y + 4}h1v1h-1z`] : []))).join('');
  return (
    <svg className="qr-code" viewBox={`0 0 ${n} ${n}`} width={200} height={200} shapeRendering="crispEdges" role="img" aria-label={label}>
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

function noticeText(n: DeviceNotice, who: string): string {
  return n.change === 'added' ? `${who} added a new device on ${fullTime(n.at)}.` : `${who} removed a device (noticed ${fullTime(n.at)}).`;
}

/** The conversation's device notices, newest last, under its header. */
export function DeviceNotices({ address, name }: { address: string; name: string }) {
  const a = address.toLowerCase();
  const trust = useStore((s) => s.trustByAddress[a]);
  const loadTrust = useStore((s) => s.loadTrust);
  const openVerify = useStore((s) => s.openVerify);
  useEffect(() => {
    void loadTrust(a).catch(() => undefined);
  }, [a, loadTrust]);
  const shown = (trust?.notices ?? []).slice(0, 3).reverse();
  if (shown.length === 0) return null;
  return (
    <div className="device-notices">
      <ul className="plain-list" aria-label="Device changes">
        {shown.map((n) => (
          <li key={n.id} className="device-notice">
            <Icon name="shield" size={14} /> {noticeText(n, name)}
          </li>
        ))}
      </ul>
      {trust?.changed && <span className="small">You had verified {name}: the mark was removed.</span>}
      <button type="button" className="btn btn-link btn-sm" onClick={() => openVerify(a)}>
        Verify safety number
      </button>
    </div>
  );
}

/**
 * Asked once, before the first message after a verified contact's devices changed: send
 * anyway (which answers the question), or verify first.
 */
export function SafetyChangedDialog({ address, name, onAnswer }: { address: string; name: string; onAnswer: (send: boolean) => void }) {
  const verifyContact = useStore((s) => s.verifyContact);
  const openVerify = useStore((s) => s.openVerify);
  const confirm = useAction(verifyContact);
  return (
    <Dialog title="Safety number changed" open onClose={() => onAnswer(false)}>
      <div className="stack">
        <p>
          {name}’s devices changed since you verified their safety number. It may be a new computer of theirs, or someone else’s key. Your message has not been sent.
        </p>
        <FormError error={confirm.error} />
        <div className="row end">
          <button type="button" className="btn btn-ghost" onClick={() => {
            onAnswer(false);
            openVerify(address);
          }}>
            Verify first
          </button>
          <button type="button" className="btn btn-primary" disabled={confirm.busy} onClick={async () => {
            if ((await confirm.run(address, false)).ok) onAnswer(true);
          }}>
            Send anyway
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** Settings: new and removed devices of one's own wallet. */
export function OwnDeviceNotices({ address }: { address: string }) {
  const a = address.toLowerCase();
  const notices = useStore((s) => s.trustByAddress[a]?.notices ?? []);
  const loadTrust = useStore((s) => s.loadTrust);
  const devices = useStore((s) => s.settings.devices);
  // the device list was just fetched (which records changes): read the notices after it
  useEffect(() => {
    void loadTrust(a).catch(() => undefined);
  }, [a, loadTrust, devices]);
  if (notices.length === 0) return null;
  return (
    <ul className="plain-list own-device-notices" aria-label="Changes to your devices">
      {notices.slice(0, 5).map((n) => (
        <li key={n.id} className="note small">
          <Icon name={n.change === 'added' ? 'alert' : 'key'} size={16} />
          <span>
            {n.change === 'added' ? `A new device of yours (${shortAddress(n.deviceKey)}) was added on ${fullTime(n.at)}. If that was not you, revoke it below.` : `Your device ${shortAddress(n.deviceKey)} was removed (noticed ${fullTime(n.at)}).`}
          </span>
        </li>
      ))}
    </ul>
  );
}
