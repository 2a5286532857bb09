import { useEffect, useState } from 'react';
import type { SafetyNumberInfo } from '../../shared/trust.js';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { QrCode } from '../components/qr-code.js';
import { fullTime } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * The conversation header's Verify button and its dialog: the safety number main computed,
 * its QR code, and "Mark as verified". The page only draws them; it does no crypto.
 */
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
