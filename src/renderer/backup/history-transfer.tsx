import { useEffect } from 'react';
import { defineMessages, FormattedMessage, useIntl } from 'react-intl';
import { translateError } from '../i18n/error-messages.js';
import type { HistoryPhase, HistoryProgress } from '../../shared/backup/history.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { shortAddress } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

const PHASES = defineMessages({
  pack: {
    id: 'history.phase.pack',
    defaultMessage: 'Packing',
    description: 'History transfer phase (followed by “your history for …”).',
  },
  upload: { id: 'history.phase.upload', defaultMessage: 'Uploading', description: 'History transfer phase.' },
  download: { id: 'history.phase.download', defaultMessage: 'Downloading', description: 'History transfer phase.' },
  verify: { id: 'history.phase.verify', defaultMessage: 'Checking', description: 'History transfer phase.' },
  import: { id: 'history.phase.import', defaultMessage: 'Importing', description: 'History transfer phase.' },
}) satisfies Record<HistoryPhase, unknown>;

/** how often the open Settings page asks for this wallet's devices again */
const DEVICES_RECHECK_MS = 10_000;

const key = (k: string) => <bdi dir="ltr">{shortAddress(k)}</bdi>;

/**
 * Settings → Devices: offers to send this device's history to the newest other device of the
 * wallet set up after this one (sealed to that device's key, through the relay), and shows a
 * transfer's progress and outcome on either side.
 */
export function HistoryTransfer() {
  const devices = useStore((s) => s.settings.devices);
  const h = useStore((s) => s.history);
  const sendHistory = useStore((s) => s.sendHistory);
  const dismiss = useStore((s) => s.dismissHistoryOffer);
  const action = useAction(sendHistory);
  const decline = useAction(dismiss);
  // A new computer of this wallet may be set up while this page is open: the list is asked
  // again now and then (main's notice of it, events.ts, may come much later), so the offer
  // appears without leaving Settings and coming back.
  const ownDevicesChanged = useStore((s) => s.ownDevicesChanged);
  useEffect(() => {
    const timer = setInterval(() => void ownDevicesChanged().catch(() => undefined), DEVICES_RECHECK_MS);
    return () => clearInterval(timer);
  }, [ownDevicesChanged]);
  // only a device set up after this one is new: never offer history back to an older computer
  const mine = devices.find((d) => d.current);
  const newest = devices
    .filter((d) => !d.current && (!mine || d.createdAt > mine.createdAt))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  const offer = newest && newest.history === null && h.progress === null ? newest : null;
  const intl = useIntl();
  return (
    <>
      {h.progress && <Progress p={h.progress} />}
      {h.outcome?.state === 'received' && (
        <p className="note small" role="status">
          <Icon name="check" size={16} />
          <span>
            <FormattedMessage
              id="history.received"
              defaultMessage="History received from {device}: {conversations, plural, one {# conversation} other {# conversations}}, {messages, plural, one {# message} other {# messages}}."
              description="After this device received history from another; device is the start of its key."
              values={{
                device: key(h.outcome.fromDevice),
                conversations: h.outcome.conversations,
                messages: h.outcome.messages,
              }}
            />
          </span>
        </p>
      )}
      {h.outcome?.state === 'refused' && (
        <p className="note warn-note small" role="alert">
          <Icon name="alert" size={16} />
          <span>
            <FormattedMessage
              id="history.refused"
              defaultMessage="History from {device} was refused: {reason}"
              description="When received history was refused; reason is a sentence."
              values={{ device: key(h.outcome.fromDevice), reason: translateError(intl, h.outcome.reason) }}
            />
          </span>
        </p>
      )}
      {h.sentTo && (
        <p className="note small" role="status">
          <Icon name="check" size={16} />
          <span>
            <FormattedMessage
              id="history.sent"
              defaultMessage="History sent to {device}. It appears there once that device is online."
              description="After sending history to another device."
              values={{ device: key(h.sentTo) }}
            />
          </span>
        </p>
      )}
      {offer && (
        <div className="card history-offer" role="group" aria-labelledby="history-offer-title">
          <h3 id="history-offer-title">
            <FormattedMessage
              id="history.offer.title"
              defaultMessage="Send your history to {device}?"
              description="Offer to send history to a newer device; device is the start of its key."
              values={{ device: key(offer.publicKey) }}
            />
          </h3>
          <p className="subtle small">
            <FormattedMessage
              id="history.offer.text"
              defaultMessage="Your conversations, messages, contacts, groups, settings and files go to that device only, encrypted to its key; the relay carries them without being able to read them."
              description="Explains the history transfer."
            />
          </p>
          <FormError error={action.error ?? decline.error} />
          <div className="row">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={decline.busy || action.busy}
              onClick={() => void decline.run(offer.publicKey)}
            >
              <FormattedMessage
                id="history.offer.notNow"
                defaultMessage="Not now"
                description="Button that declines the history offer."
              />
            </button>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={action.busy}
              onClick={() => void action.run(offer.publicKey)}
            >
              <FormattedMessage
                id="history.offer.send"
                defaultMessage="Send history"
                description="Button that sends the history."
              />
            </button>
          </div>
        </div>
      )}
    </>
  );
}

function Progress({ p }: { p: HistoryProgress }) {
  const intl = useIntl();
  const values = { phase: intl.formatMessage(PHASES[p.phase]), device: shortAddress(p.deviceKey) };
  const label =
    p.direction === 'send'
      ? intl.formatMessage(
          {
            id: 'history.progress.send',
            defaultMessage: '{phase} your history for {device}',
            description: 'Progress of sending history; phase is e.g. “Uploading”, device the start of its key.',
          },
          values,
        )
      : intl.formatMessage(
          {
            id: 'history.progress.receive',
            defaultMessage: '{phase} your history from {device}',
            description: 'Progress of receiving history.',
          },
          values,
        );
  return (
    <div className="history-progress" role="status">
      <span className="small">
        <FormattedMessage
          id="history.progress.ongoing"
          defaultMessage="{label}…"
          description="A history transfer still under way; label is e.g. “Uploading your history for 0x12ab…”."
          values={{ label }}
        />
      </span>
      {p.total > 0 ? (
        <progress aria-label={label} max={p.total} value={Math.min(p.done, p.total)} />
      ) : (
        <progress aria-label={label} />
      )}
    </div>
  );
}
