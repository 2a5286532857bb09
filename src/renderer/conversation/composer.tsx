import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MESSAGE_MAX_CHARS, type ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { splitMessage } from './message-split.js';
import { useStore } from '../store.js';
import { BridgeError } from '../bridge/bridge.js';
import { SafetyChangedDialog } from '../trust/safety-changed-dialog.js';
import { AttachButton } from '../files/attach-button.js';
import { DraftFiles } from '../files/draft-files.js';
import { CAPTION_MAX_CHARS } from '../../shared/attachments.js';
import { useAddDraftFiles } from '../files/use-add-draft-files.js';

const MAX_ROWS_PX = 180;
/** the count appears from here on, so the limit never comes as a surprise */
const SHOW_COUNT_FROM = Math.floor(MESSAGE_MAX_CHARS * 0.9);

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
  const addDraftFiles = useAddDraftFiles(conversationId);
  const intl = useIntl();
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
      if (captionTooLong)
        return showToast(
          'error',
          intl.formatMessage(
            {
              id: 'composer.captionTooLong',
              defaultMessage:
                'Beside files a message can say up to {max, number} characters; send the text on its own.',
              description: 'Error toast when the text sent with files is over the caption limit; {max} is the limit',
            },
            { max: CAPTION_MAX_CHARS },
          ),
        );
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
            <FormattedMessage
              id="composer.tooLong"
              defaultMessage="This message is {length, plural, one {# character} other {# characters}}; one message can hold up to {max, number}. Shorten it, or send it in parts."
              description="Alert above the message box when the text is over the limit; {length} is its length in characters, {max} the limit"
              values={{ length: body.length, max: MESSAGE_MAX_CHARS }}
            />
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void sendInParts()}>
            <FormattedMessage
              id="composer.sendInParts"
              defaultMessage="{parts, plural, one {Send as # message} other {Send as # messages}}"
              description="Button that splits a too long text into several messages; {parts} is how many"
              values={{ parts }}
            />
          </button>
        </div>
      )}
      <AttachButton conversationId={conversationId} />
      <textarea
        ref={ref}
        rows={1}
        aria-label={intl.formatMessage({
          id: 'composer.input.label',
          defaultMessage: 'Message',
          description: 'Accessible name of the message box',
        })}
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
          addDraftFiles(files);
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
          <FormattedMessage
            id="composer.count"
            defaultMessage="{length, number} / {max, number}"
            description="Character count beside the message box near the limit; {length} is the text’s length, {max} the limit"
            values={{ length: body.length, max: MESSAGE_MAX_CHARS }}
          />
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
      <button
        type="submit"
        className="send-btn"
        aria-label={intl.formatMessage({
          id: 'composer.send.label',
          defaultMessage: 'Send',
          description: 'Accessible name of the send button beside the message box',
        })}
        title={
          tooLong && fileCount === 0
            ? intl.formatMessage({
                id: 'composer.send.tooLongTitle',
                defaultMessage: 'Too long to send as one message',
                description: 'Tooltip of the disabled send button when the text is over the limit',
              })
            : intl.formatMessage({
                id: 'composer.send.title',
                defaultMessage: 'Send (Enter)',
                description: 'Tooltip of the send button; Enter is the key that sends',
              })
        }
        disabled={fileCount === 0 && (!body || tooLong)}
      >
        <Icon name="send" size={18} />
      </button>
    </form>
  );
}
