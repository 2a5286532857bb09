/**
 * Desktop notifications for what arrives while the person is not looking: new messages (not
 * their own, not in a muted conversation) and contact requests. The shell shows them in
 * Electron; in web mode main answers `shown: false` and the browser's own API shows them.
 * With "sender only" the text stays out of the notification.
 */
import type { ChatMessage, ContactRequest, ConversationId } from '../../shared/domain.js';
import { attending } from './attention.js';
import { call } from '../bridge/bridge.js';
import { showBrowserNotification } from './browser-notifications.js';
import { displayName } from '../i18n/format.js';
import { useStore } from '../store.js';
import { defineMessages } from 'react-intl';
import { currentIntl } from '../i18n/current-intl.js';

const text = defineMessages({
  inGroup: {
    id: 'notification.inGroup',
    defaultMessage: '{sender} in {group}',
    description: 'Desktop notification title for a group message.',
  },
  newMessage: {
    id: 'notification.newMessage',
    defaultMessage: 'New message',
    description: 'Desktop notification body when previews are off.',
  },
  request: {
    id: 'notification.request',
    defaultMessage: 'Contact request from {name}',
    description: 'Desktop notification title for a contact request.',
  },
  openRequests: {
    id: 'notification.openRequests',
    defaultMessage: 'Open Requests to accept or decline.',
    description: 'Desktop notification body of a contact request when previews are off.',
  },
});

/** Opens what a clicked notification was about: its conversation, or Requests. */
export function openFromNotification(conversationId: ConversationId | null): void {
  const s = useStore.getState();
  if (conversationId) void s.selectConversation(conversationId).catch((e: Error) => s.showToast('error', e.message));
  else s.showView('requests');
}

function wanted(): { preview: boolean } | null {
  const p = useStore.getState().preferences;
  if (!p?.notifications || attending()) return null;
  return { preview: p.notificationPreview === 'full' };
}

async function show(title: string, body: string, conversationId: ConversationId | null): Promise<void> {
  const { shown } = await call('notifications.show', {
    title,
    body: body.slice(0, 500),
    ...(conversationId ? { conversationId } : {}),
  });
  if (!shown)
    showBrowserNotification(title, body, conversationId ?? 'requests', () => openFromNotification(conversationId));
}

export function notifyMessage(m: ChatMessage): void {
  // a request's first message is announced as a request (request.new)
  if (m.fromMe || m.routed === 'request') return;
  const w = wanted();
  const c = useStore.getState().conversations.find((x) => x.id === m.conversationId);
  if (!w || c?.muted) return;
  const sender = c?.kind === 'direct' ? c.title : displayName(m.fromHandle, m.from);
  const intl = currentIntl();
  const title = c?.kind === 'group' ? intl.formatMessage(text.inGroup, { sender, group: c.title }) : sender;
  void show(title.slice(0, 200), w.preview ? m.text : intl.formatMessage(text.newMessage), m.conversationId).catch(
    () => undefined,
  );
}

export function notifyRequest(r: ContactRequest): void {
  const w = wanted();
  if (!w) return;
  const intl = currentIntl();
  const title = intl.formatMessage(text.request, { name: displayName(r.handle, r.address) });
  void show(title.slice(0, 200), w.preview ? r.intro : intl.formatMessage(text.openRequests), null).catch(
    () => undefined,
  );
}
