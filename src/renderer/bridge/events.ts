/** Main's pushed events become store actions of the same meaning. */
import { on, onAppLink } from './bridge.js';
import { notifyMessage, notifyRequest, openFromNotification } from '../notifications/desktop-notifications.js';
import { useStore } from '../store.js';

export function subscribeToMain(): () => void {
  const s = () => useStore.getState();
  const offs = [
    on('message.new', (m) => {
      s().messageReceived(m);
      notifyMessage(m);
    }),
    on('message.updated', (m) => s().messageUpdated(m)),
    on('message.removed', ({ conversationId, ids }) => s().messagesRemoved(conversationId, ids)),
    on('conversation.updated', (c) => s().conversationUpdated(c)),
    on('request.new', (r) => {
      s().requestReceived(r);
      notifyRequest(r);
    }),
    on('contact.updated', (k) => s().handleLearned(k)),
    on('contact.relationship', ({ address, relationship }) => s().relationshipChanged(address, relationship)),
    on('sync.status', (x) => s().syncStatusChanged(x)),
    on('relay.status', (r) => s().relayStatusChanged(r)),
    on('app.status', (x) => s().statusChanged(x)),
    on('typing', (t) => s().typingReceived(t)),
    on('devices.changed', (n) => {
      s().deviceNoticeReceived(n);
      if (n.address.toLowerCase() === s().status?.address?.toLowerCase())
        s()
          .ownDevicesChanged()
          .catch(() => undefined);
    }),
    on('backup.progress', (p) => s().backupProgressed(p)),
    on('history.progress', (p) => s().historyProgressed(p)),
    on('history.outcome', (o) => s().historyFinished(o)),
    on('file.progress', (p) => s().fileProgressed(p)),
    on('notification.clicked', ({ conversationId }) => openFromNotification(conversationId)),
    onAppLink((up) => s().appLinkChanged(up)),
  ];
  return () => offs.forEach((off) => off());
}
