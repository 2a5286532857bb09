import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MESSAGE_MAX_CHARS, type ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { splitMessage } from '../message-split.js';
import { useStore } from '../store/store.js';
import { BridgeError } from '../bridge.js';
import { SafetyChangedDialog } from './safety-changed-dialog.js';
import { AttachButton } from './attach-button.js';
import { DraftFiles } from './draft-files.js';
import { CAPTION_MAX_CHARS } from '../../shared/attachments.js';

const MAX_ROWS_PX = 180;
/** the count appears from here on, so the limit never comes as a surprise */
const SHOW_COUNT_FROM = Math.floor(MESSAGE_MAX_CHARS * 0.9);
const count = new Intl.NumberFormat();

export function Composer({ conversationId, placeholder }: { conversationId: ConversationId; placeholder: string }) {
  const sendMessage = useStore((s) => s.sendMessage);
  const composerChanged = useStore((s) => s.composerChanged);
  const composerSent = useStore((s) => s.composerSent);
  const showToast = useStore((s) => s.showToast);
  const [text, setText] = useState('');
  /** a message held because the contact's safety number changed: asked about once */
  const [held, setHeld] = useState<string | null>(null);
  const title = useStore((s) => s.conversations.find((c) => c.id === conversationId)?.title ?? '');
  const ref = useRef<HTMLTextAreaElement>(null);
  const fileCount = useStore((s) => s.draftFiles[conversationId]?.length ?? 0);
  const addDraftFiles = useStore((s) => s.addDraftFiles);
  const sendDraftFiles = useStore((s) => s.sendDraftFiles);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
    // a scroll bar (with its spinner arrows) only once the box stops growing
    el.style.overflowY = el.scrollHeight > MAX_ROWS_PX ? 'auto' : 'hidden';
  }, [text]);

  useLayoutEffect(() => {
    ref.current?.focus();
  }, [conversationId]);

  // Leaving the conversation with text in the box: the peer should not see "typing…" for 6 s more.
  useEffect(() => () => composerSent(conversationId), [conversationId, composerSent]);

  const body = text.trim();
  const tooLong = body.length > MESSAGE_MAX_CHARS;
  const parts = useMemo(() => (tooLong ? splitMessage(body, MESSAGE_MAX_CHARS).length : 0), [tooLong, body]);

  const captionTooLong = fileCount > 0 && body.length > CAPTION_MAX_CHARS;
  const send = () => {
    if (fileCount > 0) {
      if (captionTooLong) return showToast('error', `Beside files a message can say up to ${count.format(CAPTION_MAX_CHARS)} characters; send the text on its own.`);
      setText('');
      sendDraftFiles(conversationId, body);
      composerSent(conversationId);
      return;
    }
    if (!body || tooLong) return;
    setText('');
    // The message shows at once as "sending"; a failure becomes a Retry on the message itself.
    sendMessage(conversationId, body)
      .catch((e: Error) => {
        setText((t) => (t ? t : body));
        if (e instanceof BridgeError && e.code === 'safety-number-changed') setHeld(body);
        else showToast('error', e.message);
      })
      // after the send: main has then already ended the notice (the message ends it on the peer's side), so no extra one goes out
      .finally(() => composerSent(conversationId));
  };

  /** Sends the parts one after another, in order; what could not be sent goes back into the box. */
  const sendInParts = async () => {
    const parts = splitMessage(body, MESSAGE_MAX_CHARS)
      .map((p) => p.trim())
      .filter(Boolean);
    setText('');
    for (let i = 0; i < parts.length; i++) {
      try {
        await sendMessage(conversationId, parts[i]);
      } catch (e) {
        setText(parts.slice(i).join('\n'));
        showToast('error', (e as Error).message);
        return;
      }
    }
    composerSent(conversationId);
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <DraftFiles conversationId={conversationId} />
      {tooLong && fileCount === 0 && (
        <div className="composer-limit" role="alert">
          <span>
            This message is {count.format(body.length)} characters; one message can hold up to {count.format(MESSAGE_MAX_CHARS)}. Shorten it, or send it in parts.
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void sendInParts()}>
            Send as {parts} messages
          </button>
        </div>
      )}
      <AttachButton conversationId={conversationId} />
      <textarea
        ref={ref}
        rows={1}
        aria-label="Message"
        aria-describedby={body.length >= SHOW_COUNT_FROM ? 'composer-count' : undefined}
        aria-invalid={tooLong || undefined}
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          composerChanged(conversationId, e.target.value);
        }}
        onPaste={(e) => {
          // a pasted image or copied files join the message; pasted text stays text
          const files = Array.from(e.clipboardData.files);
          if (files.length === 0) return;
          e.preventDefault();
          void addDraftFiles(conversationId, files);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      {body.length >= SHOW_COUNT_FROM && (
        <span id="composer-count" className={tooLong ? 'composer-count over' : 'composer-count'} aria-live="polite">
          {count.format(body.length)} / {count.format(MESSAGE_MAX_CHARS)}
        </span>
      )}
      {held !== null && (
        <SafetyChangedDialog
          address={conversationId.slice(7)}
          name={title}
          onAnswer={(send) => {
            setHeld(null);
            if (!send) return;
            setText((t) => (t === held ? '' : t));
            void sendMessage(conversationId, held).catch((e: Error) => showToast('error', e.message));
          }}
        />
      )}
      <button type="submit" className="send-btn" aria-label="Send" title={tooLong && fileCount === 0 ? 'Too long to send as one message' : 'Send (Enter)'} disabled={fileCount === 0 && (!body || tooLong)}>
        <Icon name="send" size={18} />
      </button>
    </form>
  );
}
