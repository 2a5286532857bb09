import { useRef, useState, type ReactNode } from 'react';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';

const carriesFiles = (e: React.DragEvent) => Array.from(e.dataTransfer.types).includes('Files');

/** The conversation as a drop target: files dropped on it join the message being written. */
export function FileDrop({ conversationId, title, children }: { conversationId: ConversationId; title: string; children: ReactNode }) {
  const addDraftFiles = useStore((s) => s.addDraftFiles);
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
        void addDraftFiles(conversationId, Array.from(e.dataTransfer.files));
      }}
    >
      {children}
      {over && (
        <div className="file-drop-overlay" aria-hidden="true">
          <Icon name="paperclip" size={28} />
          <span>Drop to send to {title}</span>
        </div>
      )}
    </div>
  );
}
