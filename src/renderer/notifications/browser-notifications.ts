/**
 * The browser's Notification API, for web mode (Electron's shell shows its own). Permission is
 * asked only when the person turns notifications on in Settings, never on load: a prompt
 * nobody asked for is one most people refuse for good.
 */

export type PermissionAnswer = 'granted' | 'denied' | 'unsupported';

function api(): typeof Notification | null {
  return typeof window.Notification === 'function' ? window.Notification : null;
}

/** Asks once (the browser remembers the answer); only from a click, so the browser shows the prompt. */
export async function askNotificationPermission(): Promise<PermissionAnswer> {
  const N = api();
  if (!N) return 'unsupported';
  if (N.permission === 'default') await N.requestPermission();
  return N.permission === 'granted' ? 'granted' : 'denied';
}

/** Shows one if the browser allows it; a click brings the window forward and runs `onClick`. */
export function showBrowserNotification(title: string, body: string, tag: string, onClick: () => void): boolean {
  const N = api();
  if (!N || N.permission !== 'granted') return false;
  const n = new N(title, { body, tag });
  n.onclick = () => {
    window.focus();
    onClick();
    n.close();
  };
  return true;
}
