import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageFile } from '../../shared/attachments.js';
import type { ChatMessage } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { fileSize } from '../i18n/format.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';
import { ProgressBar } from './progress-bar.js';

/**
 * A message's files: an image as its sender's preview (there before the file is fetched), any
 * other file as a row with its name and size; Save once it is downloaded and checked here.
 */
export function MessageFiles({ m }: { m: ChatMessage }) {
  const intl = useIntl();
  if (!m.files?.length || m.deleted) return null;
  return (
    <ul
      className="msg-files"
      aria-label={intl.formatMessage({
        id: 'messageFiles.label',
        defaultMessage: 'Files',
        description: 'Accessible name of the list of files in a message',
      })}
    >
      {m.files.map((f) => (
        <li key={f.index} className={f.preview ? 'msg-file has-preview' : 'msg-file'} data-state={f.state}>
          {f.preview && (
            <img
              className="msg-file-preview"
              src={f.preview}
              alt={intl.formatMessage(
                {
                  id: 'messageFiles.previewAlt',
                  defaultMessage: 'Preview of {name}',
                  description: 'Alternative text of an image file’s preview in a message; {name} is the file name',
                },
                { name: f.name },
              )}
            />
          )}
          <FileRow messageId={m.id} f={f} />
        </li>
      ))}
    </ul>
  );
}

function FileRow({ messageId, f }: { messageId: string; f: MessageFile }) {
  const saveFile = useStore((s) => s.saveFile);
  const fetchFiles = useStore((s) => s.fetchFiles);
  const progress = useStore((s) => s.fileProgress[`down/${messageId}/${f.index}`]);
  const save = useAction(saveFile);
  const fetch = useAction(fetchFiles);
  const intl = useIntl();
  return (
    <div className="msg-file-row">
      {!f.preview && <Icon name="file" size={22} className="msg-file-icon" />}
      <div className="msg-file-info">
        <bdi className="msg-file-name" title={f.name}>
          {f.name}
        </bdi>
        <span className="msg-file-meta">
          {f.state === 'pending' && !progress ? (
            f.error ? (
              <FormattedMessage
                id="messageFiles.notDownloaded"
                defaultMessage="{size} · not downloaded yet"
                description="Under a received file the relay could not hand over yet; {size} is the file size (e.g. 3.1 MB)"
                values={{ size: fileSize(f.size, intl) }}
              />
            ) : (
              <FormattedMessage
                id="messageFiles.downloading"
                defaultMessage="{size} · downloading…"
                description="Under a received file while it downloads; {size} is the file size"
                values={{ size: fileSize(f.size, intl) }}
              />
            )
          ) : (
            fileSize(f.size, intl)
          )}
        </span>
        {progress && (
          <ProgressBar
            label={intl.formatMessage(
              {
                id: 'messageFiles.progress',
                defaultMessage: 'Downloading {name}',
                description: 'Accessible name of a received file’s download bar; {name} is the file name',
              },
              { name: f.name },
            )}
            done={progress.done}
            total={progress.total}
          />
        )}
        {f.state === 'refused' && (
          <span className="msg-file-error" role="status">
            <FormattedMessage
              id="messageFiles.refused"
              defaultMessage="Not kept: {reason}"
              description="Under a received file that was refused; {reason} says why (from the app)"
              values={{ reason: f.error }}
            />
          </span>
        )}
        {(save.error ?? fetch.error) && (
          <span className="msg-file-error" role="alert">
            {save.error ?? fetch.error}
          </span>
        )}
      </div>
      {f.state === 'saved' && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={intl.formatMessage(
            {
              id: 'messageFiles.save.label',
              defaultMessage: 'Save {name}',
              description: 'Accessible name of the Save button of a received file; {name} is the file name',
            },
            { name: f.name },
          )}
          disabled={save.busy}
          onClick={() => void save.run(messageId, f.index, f.name, f.mime)}
        >
          <Icon name="download" size={15} />{' '}
          <FormattedMessage
            id="messageFiles.save.text"
            defaultMessage="Save"
            description="Button beside a received file that saves it to disk"
          />
        </button>
      )}
      {f.state === 'pending' && f.error && !progress && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={intl.formatMessage(
            {
              id: 'messageFiles.download.label',
              defaultMessage: 'Download {name}',
              description: 'Accessible name of the Download button of a file not fetched yet; {name} is the file name',
            },
            { name: f.name },
          )}
          disabled={fetch.busy}
          onClick={() => void fetch.run()}
        >
          <Icon name="refresh" size={15} />{' '}
          <FormattedMessage
            id="messageFiles.download.text"
            defaultMessage="Download"
            description="Button beside a received file not fetched yet: tries the download again"
          />
        </button>
      )}
    </div>
  );
}
