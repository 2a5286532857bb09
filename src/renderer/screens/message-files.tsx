import type { MessageFile } from '../../shared/attachments.js';
import type { ChatMessage } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { fileSize } from '../format.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';
import { ProgressBar } from './progress-bar.js';

/**
 * A message's files: an image as its sender's preview (there before the file is fetched), any
 * other file as a row with its name and size; Save once it is downloaded and checked here.
 */
export function MessageFiles({ m }: { m: ChatMessage }) {
  if (!m.files?.length || m.deleted) return null;
  return (
    <ul className="msg-files" aria-label="Files">
      {m.files.map((f) => (
        <li key={f.index} className={f.preview ? 'msg-file has-preview' : 'msg-file'} data-state={f.state}>
          {f.preview && <img className="msg-file-preview" src={f.preview} alt={`Preview of ${f.name}`} />}
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
  return (
    <div className="msg-file-row">
      {!f.preview && <Icon name="file" size={22} className="msg-file-icon" />}
      <div className="msg-file-info">
        <span className="msg-file-name" title={f.name}>
          {f.name}
        </span>
        <span className="msg-file-meta">
          {fileSize(f.size)}
          {f.state === 'pending' && !progress && (f.error ? ' · not downloaded yet' : ' · downloading…')}
        </span>
        {progress && <ProgressBar label={`Downloading ${f.name}`} done={progress.done} total={progress.total} />}
        {f.state === 'refused' && (
          <span className="msg-file-error" role="status">
            Not kept: {f.error}
          </span>
        )}
        {(save.error ?? fetch.error) && (
          <span className="msg-file-error" role="alert">
            {save.error ?? fetch.error}
          </span>
        )}
      </div>
      {f.state === 'saved' && (
        <button type="button" className="btn btn-secondary btn-sm" aria-label={`Save ${f.name}`} disabled={save.busy} onClick={() => void save.run(messageId, f.index, f.name, f.mime)}>
          <Icon name="download" size={15} /> Save
        </button>
      )}
      {f.state === 'pending' && f.error && !progress && (
        <button type="button" className="btn btn-secondary btn-sm" aria-label={`Download ${f.name}`} disabled={fetch.busy} onClick={() => void fetch.run()}>
          <Icon name="refresh" size={15} /> Download
        </button>
      )}
    </div>
  );
}
