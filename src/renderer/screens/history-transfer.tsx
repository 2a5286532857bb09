import type { HistoryPhase, HistoryProgress } from '../../shared/history.js';
import { FormError } from '../components/form-error.js';
import { Icon } from '../components/icon.js';
import { shortAddress } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

const PHASES: Record<HistoryPhase, string> = {
  pack: 'Packing',
  upload: 'Uploading',
  download: 'Downloading',
  verify: 'Checking',
  import: 'Importing',
};

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
  // only a device set up after this one is new: never offer history back to an older computer
  const mine = devices.find((d) => d.current);
  const newest = devices.filter((d) => !d.current && (!mine || d.createdAt > mine.createdAt)).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  const offer = newest && newest.history === null && h.progress === null ? newest : null;
  return (
    <>
      {h.progress && <Progress p={h.progress} />}
      {h.outcome?.state === 'received' && (
        <p className="note small" role="status">
          <Icon name="check" size={16} />
          <span>
            History received from {shortAddress(h.outcome.fromDevice)}: {h.outcome.conversations} conversation{h.outcome.conversations === 1 ? '' : 's'},{' '}
            {h.outcome.messages} message{h.outcome.messages === 1 ? '' : 's'}.
          </span>
        </p>
      )}
      {h.outcome?.state === 'refused' && (
        <p className="note warn-note small" role="alert">
          <Icon name="alert" size={16} />
          <span>History from {shortAddress(h.outcome.fromDevice)} was refused: {h.outcome.reason}</span>
        </p>
      )}
      {h.sentTo && (
        <p className="note small" role="status">
          <Icon name="check" size={16} />
          <span>History sent to {shortAddress(h.sentTo)}. It appears there once that device is online.</span>
        </p>
      )}
      {offer && (
        <div className="card history-offer" role="group" aria-labelledby="history-offer-title">
          <h3 id="history-offer-title">Send your history to {shortAddress(offer.publicKey)}?</h3>
          <p className="subtle small">
            Your conversations, messages, contacts, groups, settings and files go to that device only, encrypted to its key; the relay carries them without being able to read them.
          </p>
          <FormError error={action.error ?? decline.error} />
          <div className="row">
            <button type="button" className="btn btn-ghost btn-sm" disabled={decline.busy || action.busy} onClick={() => void decline.run(offer.publicKey)}>
              Not now
            </button>
            <button type="button" className="btn btn-primary btn-sm" disabled={action.busy} onClick={() => void action.run(offer.publicKey)}>
              Send history
            </button>
          </div>
        </div>
      )}
    </>
  );
}

function Progress({ p }: { p: HistoryProgress }) {
  const label = `${PHASES[p.phase]} ${p.direction === 'send' ? `your history for ${shortAddress(p.deviceKey)}` : `your history from ${shortAddress(p.deviceKey)}`}`;
  return (
    <div className="history-progress" role="status">
      <span className="small">{label}…</span>
      {p.total > 0 ? <progress aria-label={label} max={p.total} value={Math.min(p.done, p.total)} /> : <progress aria-label={label} />}
    </div>
  );
}
