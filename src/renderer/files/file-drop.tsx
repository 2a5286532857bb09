import { useRef, useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useAddDraftFiles } from './use-add-draft-files.js';

const carriesFiles = (e: React.DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

/** The conversation as a drop target: files dropped on it join the message being written. */
export function FileDrop({
  conversationId,
  title,
  children,
}: {
  conversationId: ConversationId;
  title: string;
  children: ReactNode;
}) {
  const addDraftFiles = useAddDraftFiles(conversationId);
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed: count them
  const depth = useRef(0);
  return (
    <div
      className="file-drop"
      onDragEnter={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        addDraftFiles(Array.from(e.dataTransfer.files));
      }}
    >
      {children}
      {over && (
        <div className="file-drop-overlay" aria-hidden="true">
          <Icon name="paperclip" size={28} />
          <span>
            <FormattedMessage
              id="fileDrop.overlay"
              defaultMessage="Drop to send to {name}"
              description="Over the conversation while files are dragged onto it; {name} is the contact or group"
              values={{ name: <bdi>{title}</bdi> }}
            />
          </span>
        </div>
      )}
    </div>
  );
}
