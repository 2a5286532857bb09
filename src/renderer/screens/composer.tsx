import { useLayoutEffect, useRef, useState } from 'react';
import type { ConversationId } from '../../shared/domain.js';
import { Icon } from '../components/icon.js';
import { useStore } from '../store/store.js';

const MAX_ROWS_PX = 180;

export function Composer({ conversationId, placeholder }: { conversationId: ConversationId; placeholder: string }) {
  const submitted = useStore((s) => s.composerSubmitted);
  const toast = useStore((s) => s.toastShown);
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  useLayoutEffect(() => {
    ref.current?.focus();
  }, [conversationId]);

  const send = () => {
    const body = text.trim();
    if (!body) return;
    setText('');
    // The message shows at once as "sending"; a failure becomes a Retry on the message itself.
    submitted(conversationId, body).catch((e: Error) => {
      setText((t) => (t ? t : body));
      toast('error', e.message);
    });
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        ref={ref}
        rows={1}
        aria-label="Message"
        placeholder={placeholder}
        value={text}
        maxLength={20000}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" className="send-btn" aria-label="Send" title="Send (Enter)" disabled={!text.trim()}>
        <Icon name="send" size={18} />
      </button>
    </form>
  );
}
