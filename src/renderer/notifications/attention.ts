/**
 * The person is looking at this window: it is on screen and has the focus. What arrives then
 * is read as it lands; what arrives otherwise counts as unread and may be a desktop notification.
 */
export function attending(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}
