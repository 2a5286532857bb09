import { FormattedMessage } from 'react-intl';
import type { ConversationSummary } from '../../shared/domain.js';
import { useStore } from '../store.js';

/** "@alice is typing…": a live region that is always there, so screen readers hear it come and go. */
export function TypingNote({ c }: { c: ConversationSummary }) {
  const typing = useStore((s) => s.typingByConversation[c.id] ?? null);
  return (
    <p className="typing-note" role="status">
      {typing &&
        (c.kind === 'direct' ? (
          <FormattedMessage
            id="chats.typing.person"
            defaultMessage="{name} is typing…"
            description="Live note above the message box; {name} is the contact"
            values={{ name: <bdi dir="ltr">{c.title}</bdi> }}
          />
        ) : (
          <FormattedMessage
            id="chats.typing.someone"
            defaultMessage="Someone is typing…"
            description="Live note above the message box in a group"
          />
        ))}
    </p>
  );
}
