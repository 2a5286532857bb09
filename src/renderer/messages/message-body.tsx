import { useEffect, useRef, useState, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ChatMessage } from '../../shared/domain.js';
import { Dialog } from '../components/dialog.js';
import { DialogFooter } from '../components/dialog-footer.js';
import { FormError } from '../components/form-error.js';
import { Menu } from '../components/menu.js';
import { useStore } from '../store.js';
import { useAction } from '../shell/use-action.js';

/**
 * A message's words, or what stands in for them: "Message deleted" once its author deleted it,
 * an edit box while one's own is being edited, and on one's own a menu (Edit, Delete) that
 * shows on hover or focus (components/menu.tsx: mouse and keyboard).
 */
export function MessageBody({ m }: { m: ChatMessage }) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Leaving the edit box (saved, cancelled or Escape) puts focus back on the message's menu
  // button: the box is gone, and focus left on nothing would fall to the page's body.
  const menu = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    menu.current?.querySelector('button')?.focus();
  }, [editing]);
  if (m.deleted)
    return (
      <p className="msg-text msg-deleted">
        <FormattedMessage
          id="messageBody.deleted"
          defaultMessage="Message deleted"
          description="Stands in place of a message its author deleted for everyone"
        />
      </p>
    );
  if (editing)
    return (
      <EditForm
        m={m}
        onDone={() => {
          refocus.current = true;
          setEditing(false);
        }}
      />
    );
  const own = m.fromMe && m.state !== 'failed';
  return (
    <>
      {/* dir="auto": a message runs the way its own words do, so "Yes please!" keeps its "!" at the end in an Arabic window */}
      {(m.text !== '' || !m.files?.length) && (
        <p className="msg-text" dir="auto">
          {m.text}
        </p>
      )}
      {own && <MessageMenu menuRef={menu} onEdit={() => setEditing(true)} onDelete={() => setConfirmDelete(true)} />}
      {confirmDelete && <DeleteDialog m={m} onClose={() => setConfirmDelete(false)} />}
    </>
  );
}

function MessageMenu({
  menuRef,
  onEdit,
  onDelete,
}: {
  menuRef: RefObject<HTMLDivElement | null>;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const intl = useIntl();
  return (
    <div className="msg-menu" ref={menuRef}>
      <Menu
        label={intl.formatMessage({
          id: 'messageBody.menu.label',
          defaultMessage: 'Message actions',
          description: 'Accessible name of the menu button on one’s own message',
        })}
        buttonClassName="icon-btn icon-btn-sm msg-menu-btn"
        items={[
          {
            label: intl.formatMessage({
              id: 'messageBody.menu.edit',
              defaultMessage: 'Edit',
              description: 'Menu item on one’s own message: edit its text',
            }),
            icon: 'pencil',
            onSelect: onEdit,
          },
          {
            label: intl.formatMessage({
              id: 'messageBody.menu.delete',
              defaultMessage: 'Delete',
              description: 'Menu item on one’s own message: delete it for everyone',
            }),
            icon: 'trash',
            danger: true,
            onSelect: onDelete,
          },
        ]}
      />
    </div>
  );
}

function EditForm({ m, onDone }: { m: ChatMessage; onDone: () => void }) {
  const intl = useIntl();
  const editMessage = useStore((s) => s.editMessage);
  const action = useAction(editMessage);
  const [text, setText] = useState(m.text);
  // The box and its buttons are taller than the message they replace: on the last message they
  // would open below the visible part of the list, so they are brought into view.
  // Only the message list scrolls for it (scrollIntoView would also shift the panes around it,
  // whose overflow is hidden but still scrollable by a script), and again whenever the list's
  // content grows: the list measures the taller row a moment later, and only then has room.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const f = form.current;
    const list = f?.closest('.message-scroller');
    if (!f || !list) return;
    const reveal = () => {
      const below = f.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom;
      if (below > 0) list.scrollTop += below + 8;
    };
    const watch = new ResizeObserver(reveal);
    watch.observe(f);
    const canvas = list.querySelector('.message-canvas');
    if (canvas) watch.observe(canvas);
    return () => watch.disconnect();
  }, []);
  const save = async () => {
    if (text.trim() === '' || text === m.text) return onDone();
    if ((await action.run(m.conversationId, m.id, text)).ok) onDone();
  };
  return (
    <form
      ref={form}
      className="msg-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <textarea
        aria-label={intl.formatMessage({
          id: 'messageBody.edit.label',
          defaultMessage: 'Edit message',
          description: 'Accessible name of the text box that edits one’s own message',
        })}
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
          <FormattedMessage
            id="messageBody.edit.cancel"
            defaultMessage="Cancel"
            description="Button that ends editing a message without saving"
          />
        </button>
        <button type="submit" className="btn btn-secondary btn-sm" disabled={action.busy || text.trim() === ''}>
          <FormattedMessage
            id="messageBody.edit.save"
            defaultMessage="Save"
            description="Button that saves the edited text of a message"
          />
        </button>
      </div>
    </form>
  );
}

function DeleteDialog({ m, onClose }: { m: ChatMessage; onClose: () => void }) {
  const intl = useIntl();
  const deleteMessage = useStore((s) => s.deleteMessage);
  const action = useAction(deleteMessage);
  return (
    <Dialog
      title={intl.formatMessage({
        id: 'messageBody.delete.title',
        defaultMessage: 'Delete message',
        description: 'Title of the dialog that confirms deleting one’s own message',
      })}
      open
      onClose={onClose}
    >
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          if ((await action.run(m.conversationId, m.id)).ok) onClose();
        }}
      >
        <p>
          <FormattedMessage
            id="messageBody.delete.question"
            defaultMessage="Delete this message for everyone? It is removed from their devices and yours; “Message deleted” stays in its place."
            description="Question in the Delete message dialog; “Message deleted” is the text that stands in for a deleted message (messageBody.deleted)"
          />
        </p>
        <FormError error={action.error} />
        <DialogFooter
          onCancel={onClose}
          submitLabel={intl.formatMessage({
            id: 'messageBody.delete.submit',
            defaultMessage: 'Delete',
            description: 'Confirm button of the Delete message dialog',
          })}
          disabled={action.busy}
        />
      </form>
    </Dialog>
  );
}
