import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { fileSize } from '../format.js';
import type { OutgoingSend } from '../store/files-slice.js';
import { useStore } from '../store/store.js';
import { ProgressBar } from './progress-bar.js';

/**
 * Files on their way out of this conversation, above the message box: a bar per file while it
 * is handed over and uploaded; a failed upload says why, with Retry (the files main already
 * holds are not sent over again) and Remove.
 */
export function OutgoingSends({ conversationId }: { conversationId: ConversationId }) {
  const sends = useStore((s) => s.outgoingSends);
  const mine = sends.filter((o) => o.conversationId === conversationId);
  if (mine.length === 0) return null;
  return (
    <ul className="outgoing-sends" aria-label="Files being sent">
      {mine.map((o) => (
        <OutgoingItem key={o.sendId} o={o} />
      ))}
    </ul>
  );
}

function OutgoingItem({ o }: { o: OutgoingSend }) {
  const progress = useStore((s) => s.fileProgress);
  const retrySend = useStore((s) => s.retrySend);
  const discardSend = useStore((s) => s.discardSend);
  const failed = o.state === 'failed';
  return (
    <li className={failed ? 'outgoing-send failed' : 'outgoing-send'}>
      {o.files.map((f, i) => {
        const p = progress[`up/${o.sendId}/${i}`];
        return (
          <div key={f.key} className="outgoing-file">
            {f.preview ? <img className="draft-file-thumb" src={f.preview} alt="" /> : <Icon name="file" size={18} className="draft-file-icon" />}
            <span className="draft-file-name">{f.file.name}</span>
            <span className="draft-file-size">{fileSize(f.file.size)}</span>
            {!failed && <ProgressBar label={`Uploading ${f.file.name}`} done={p?.done ?? 0} total={p?.total ?? f.file.size} />}
          </div>
        );
      })}
      {failed && (
        <div className="msg-note tone-error" role="alert">
          <Icon name="alert" size={14} />
          <span>Upload failed: {o.error}</span>
          <button type="button" className="btn btn-link btn-sm" onClick={() => retrySend(o.sendId)}>
            <Icon name="refresh" size={14} /> Retry
          </button>
          <button type="button" className="btn btn-link btn-sm" onClick={() => discardSend(o.sendId)}>
            Remove
          </button>
        </div>
      )}
    </li>
  );
}
