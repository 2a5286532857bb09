import { useIntl } from 'react-intl';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { fileSize } from '../i18n/format.js';
import type { DraftFile } from './files-slice.js';
import { useStore } from '../store.js';

const NO_FILES: DraftFile[] = [];

/** The files chosen for the next message, as chips above the message box; each can be removed. */
export function DraftFiles({ conversationId }: { conversationId: ConversationId }) {
  const files = useStore((s) => s.draftFiles[conversationId] ?? NO_FILES);
  const removeDraftFile = useStore((s) => s.removeDraftFile);
  const intl = useIntl();
  if (files.length === 0) return null;
  return (
    <ul
      className="draft-files"
      aria-label={intl.formatMessage({
        id: 'draftFiles.label',
        defaultMessage: 'Files to send',
        description: 'Accessible name of the files chosen for the next message, above the message box',
      })}
    >
      {files.map((f) => (
        <li key={f.key} className="draft-file">
          <Thumb f={f} />
          <bdi className="draft-file-name" title={f.file.name}>
            {f.file.name}
          </bdi>
          <span className="draft-file-size">{fileSize(f.file.size, intl)}</span>
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={intl.formatMessage(
              {
                id: 'draftFiles.remove.label',
                defaultMessage: 'Remove {name}',
                description:
                  'Accessible name of the x button of a file chosen for the next message; {name} is the file name',
              },
              { name: f.file.name },
            )}
            title={intl.formatMessage({
              id: 'draftFiles.remove.title',
              defaultMessage: 'Remove',
              description: 'Tooltip of the x button of a file chosen for the next message',
            })}
            onClick={() => removeDraftFile(conversationId, f.key)}
          >
            <Icon name="x" size={14} />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The preview that will be sent, or a file icon. */
function Thumb({ f }: { f: DraftFile }) {
  return f.preview ? (
    <img className="draft-file-thumb" src={f.preview} alt="" />
  ) : (
    <Icon name="file" size={18} className="draft-file-icon" />
  );
}
