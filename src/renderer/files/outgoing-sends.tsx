import { FormattedMessage, useIntl } from 'react-intl';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { fileSize } from '../i18n/format.js';
import type { OutgoingSend } from './files-slice.js';
import { useStore } from '../store.js';
import { ProgressBar } from './progress-bar.js';

/**
 * Files on their way out of this conversation, above the message box: a bar per file while it
 * is handed over and uploaded; a failed upload says why, with Retry (the files main already
 * holds are not sent over again) and Remove.
 */
export function OutgoingSends({ conversationId }: { conversationId: ConversationId }) {
  const sends = useStore((s) => s.outgoingSends);
  const mine = sends.filter((o) => o.conversationId === conversationId);
  const intl = useIntl();
  if (mine.length === 0) return null;
  return (
    <ul
      className="outgoing-sends"
      aria-label={intl.formatMessage({
        id: 'outgoingSends.label',
        defaultMessage: 'Files being sent',
        description: 'Accessible name of the uploads above the message box',
      })}
    >
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
  const intl = useIntl();
  return (
    <li className={failed ? 'outgoing-send failed' : 'outgoing-send'}>
      {o.files.map((f, i) => {
        const p = progress[`up/${o.sendId}/${i}`];
        return (
          <div key={f.key} className="outgoing-file">
            {f.preview ? (
              <img className="draft-file-thumb" src={f.preview} alt="" />
            ) : (
              <Icon name="file" size={18} className="draft-file-icon" />
            )}
            <bdi className="draft-file-name">{f.file.name}</bdi>
            <span className="draft-file-size">{fileSize(f.file.size, intl)}</span>
            {!failed && (
              <ProgressBar
                label={intl.formatMessage(
                  {
                    id: 'outgoingSends.progress',
                    defaultMessage: 'Uploading {name}',
                    description: 'Accessible name of a file’s upload bar; {name} is the file name',
                  },
                  { name: f.file.name },
                )}
                done={p?.done ?? 0}
                total={p?.total ?? f.file.size}
              />
            )}
          </div>
        );
      })}
      {failed && (
        <div className="msg-note tone-error" role="alert">
          <Icon name="alert" size={14} />
          <span>
            <FormattedMessage
              id="outgoingSends.failed"
              defaultMessage="Upload failed: {reason}"
              description="Under files whose upload failed; {reason} says why"
              values={{ reason: o.error }}
            />
          </span>
          <button type="button" className="btn btn-link btn-sm" onClick={() => retrySend(o.sendId)}>
            <Icon name="refresh" size={14} />{' '}
            <FormattedMessage
              id="outgoingSends.retry"
              defaultMessage="Retry"
              description="Button under a failed upload: try again (files already handed over are not sent again)"
            />
          </button>
          <button type="button" className="btn btn-link btn-sm" onClick={() => discardSend(o.sendId)}>
            <FormattedMessage
              id="outgoingSends.remove"
              defaultMessage="Remove"
              description="Button under a failed upload: give up and remove the files"
            />
          </button>
        </div>
      )}
    </li>
  );
}
