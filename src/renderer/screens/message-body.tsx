import { useState } from 'react';
import type { ChatMessage } from '../../shared/domain.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { FormError } from '../components/form-error.js';
import { Menu } from '../components/menu.js';
import { useStore } from '../store/store.js';
import { useAction } from '../use-action.js';

/**
 * A message's words, or what stands in for them: "Message deleted" once its author deleted it,
 * an edit box while one's own is being edited, and on one's own a menu (Edit, Delete) that
 * shows on hover or focus (components/menu.tsx: mouse and keyboard).
 */
export function MessageBody({ m }: { m: ChatMessage }) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  if (m.deleted) return <p className="msg-text msg-deleted">Message deleted</p>;
  if (editing) return <EditForm m={m} onDone={() => setEditing(false)} />;
  const own = m.fromMe && m.state !== 'failed';
  return (
    <>
      {(m.text !== '' || !m.files?.length) && <p className="msg-text">{m.text}</p>}
      {own && <MessageMenu onEdit={() => setEditing(true)} onDelete={() => setConfirmDelete(true)} />}
      {confirmDelete && <DeleteDialog m={m} onClose={() => setConfirmDelete(false)} />}
    </>
  );
}

function MessageMenu({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="msg-menu">
      <Menu
        label="Message actions"
        buttonClassName="icon-btn icon-btn-sm msg-menu-btn"
        items={[
          { label: 'Edit', icon: 'pencil', onSelect: onEdit },
          { label: 'Delete', icon: 'trash', danger: true, onSelect: onDelete },
        ]}
      />
    </div>
  );
}

function EditForm({ m, onDone }: { m: ChatMessage; onDone: () => void }) {
  const editMessage = useStore((s) => s.editMessage);
  const action = useAction(editMessage);
  const [text, setText] = useState(m.text);
  const save = async () => {
    if (text.trim() === '' || text === m.text) return onDone();
    if ((await action.run(m.conversationId, m.id, text)).ok) onDone();
  };
  return (
    <form
      className="msg-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label="Edit message"
        value={text}
        autoFocus
        rows={Math.min(6, text.split('\n').length)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <FormError error={action.error} />
      <div className="msg-edit-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn-secondary btn-sm" disabled={action.busy || text.trim() === ''}>
          Save
        </button>
      </div>
    </form>
  );
}

function DeleteDialog({ m, onClose }: { m: ChatMessage; onClose: () => void }) {
  const deleteMessage = useStore((s) => s.deleteMessage);
  const action = useAction(deleteMessage);
  return (
    <Dialog title="Delete message" open onClose={onClose}>
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(m.conversationId, m.id)).ok) onClose();
        }}
      >
        <p>Delete this message for everyone? It is removed from their devices and yours; “Message deleted” stays in its place.</p>
        <FormError error={action.error} />
        <DialogFooter onCancel={onClose} submitLabel="Delete" disabled={action.busy} />
      </form>
    </Dialog>
  );
}
