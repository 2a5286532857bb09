import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SafetyNumberInfo } from '../../shared/trust.js';
import { Dialog } from '../components/dialog.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { QrCode } from './qr-code.js';
import { fullTime } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * The conversation header's Verify button and its dialog: the safety number main computed,
 * its QR code, and "Mark as verified". The page only draws them; it does no crypto.
 */
export function VerifyButton({ address, name }: { address: string; name: string }) {
  const a = address.toLowerCase();
  const open = useStore((s) => s.verifyingAddress === a);
  const openVerify = useStore((s) => s.openVerify);
  const closeVerify = useStore((s) => s.closeVerify);
  const intl = useIntl();
  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => openVerify(a)}>
        <Icon name="shield" size={15} />{' '}
        <FormattedMessage
          id="verify.button"
          defaultMessage="Verify"
          description="Button in a direct conversation’s header that opens the safety number dialog"
        />
      </button>
      <Dialog
        title={intl.formatMessage(
          {
            id: 'verify.title',
            defaultMessage: 'Verify {name}',
            description: 'Title of the safety number dialog; {name} is the contact’s handle or short address',
          },
          { name },
        )}
        open={open}
        onClose={closeVerify}
      >
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
  const intl = useIntl();
  useEffect(() => {
    void load.run(address).then((r) => r.ok && setInfo(r.value));
    // load once per opening
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address]);
  if (!info)
    return load.error ? (
      <FormError error={load.error} />
    ) : (
      <p className="subtle" aria-busy="true">
        <FormattedMessage
          id="verify.computing"
          defaultMessage="Computing the safety number…"
          description="In the safety number dialog while the number is computed"
        />
      </p>
    );
  const groups = info.digits.match(/\d{5}/g) ?? [];
  const who = <bdi dir="ltr">{name}</bdi>;
  return (
    <div className="stack">
      <p className="subtle small">
        <FormattedMessage
          id="verify.explain"
          defaultMessage="Compare this number with the one {name} sees for you, in person or on a call you trust, or scan each other’s code. If they match, your messages reach {name}’s own devices and no one else’s."
          description="In the safety number dialog; {name} is the contact’s handle or short address"
          values={{ name: who }}
        />
      </p>
      {info.changed && (
        <p className="note warn-note small" role="alert">
          <Icon name="alert" size={16} />
          <span>
            <FormattedMessage
              id="verify.changed"
              defaultMessage="{name}’s devices changed after you verified them. Compare the number again."
              description="Warning in the safety number dialog; {name} is the contact"
              values={{ name: who }}
            />
          </span>
        </p>
      )}
      <div className="safety-panel">
        <QrCode
          rows={info.qr}
          label={intl.formatMessage(
            {
              id: 'verify.qr',
              defaultMessage: 'QR code of your safety number with {name}',
              description: 'Accessible name of the QR code; {name} is the contact',
            },
            { name },
          )}
        />
        <p
          className="safety-digits"
          dir="ltr"
          aria-label={intl.formatMessage(
            {
              id: 'verify.digits',
              defaultMessage: 'Safety number: {digits}',
              description: 'Accessible name of the safety number’s digits; {digits} are groups of five digits',
            },
            { digits: groups.join(' ') },
          )}
        >
          {groups.map((g, i) => (
            <span key={i}>{g}</span>
          ))}
        </p>
      </div>
      <p className="subtle small">
        <FormattedMessage
          id="verify.devices"
          defaultMessage="{name} has {theirs, plural, one {# device} other {# devices}}, you have {mine, number}. The number changes when either of you adds or removes one."
          description="In the safety number dialog; {name} is the contact, {theirs} how many devices they have, {mine} how many one has oneself"
          values={{ name: who, theirs: info.theirDevices, mine: info.myDevices }}
        />
      </p>
      {info.verified && info.verifiedAt && (
        <p className="row small safety-verified-note">
          <Icon name="shieldCheck" size={16} />{' '}
          <FormattedMessage
            id="verify.verifiedAt"
            defaultMessage="Verified {time}"
            description="In the safety number dialog once verified; {time} is when (a date and time)"
            values={{ time: fullTime(info.verifiedAt, intl) }}
          />
        </p>
      )}
      <FormError error={mark.error} />
      <div className="row end">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          <FormattedMessage
            id="verify.close"
            defaultMessage="Close"
            description="Button that closes the safety number dialog"
          />
        </button>
        {info.verified ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={mark.busy}
            onClick={async () => {
              const r = await mark.run(address, false);
              if (r.ok) setInfo(r.value);
            }}
          >
            <FormattedMessage
              id="verify.unmark"
              defaultMessage="Remove verification"
              description="Button in the safety number dialog: take the verified mark away"
            />
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={mark.busy}
            onClick={async () => {
              const r = await mark.run(address, true);
              if (r.ok) setInfo(r.value);
            }}
          >
            <FormattedMessage
              id="verify.mark"
              defaultMessage="Mark as verified"
              description="Button in the safety number dialog: the numbers matched"
            />
          </button>
        )}
      </div>
    </div>
  );
}
