import type { StateCreator } from 'zustand';
import type { Store } from '../store.js';

export type View = 'chats' | 'requests' | 'directory' | 'groups' | 'stakes' | 'settings';
export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Toast {
  id: number;
  tone: 'info' | 'error' | 'success';
  text: string;
  /**
   * a button in the notice (Undo): its name, and what it does; the notice goes once it is
   * pressed. `focus`: the control that led here is gone (a blocked request's card), so the
   * focus goes to this button rather than to nowhere.
   */
  action?: { label: string; run: () => void; focus?: boolean };
}

export interface UiSlice {
  view: View;
  theme: ThemeChoice;
  toasts: Toast[];
  showView: (v: View) => void;
  chooseTheme: (t: ThemeChoice) => void;
  showToast: (tone: Toast['tone'], text: string, action?: Toast['action']) => void;
  dismissToast: (id: number) => void;
}

let toastSeq = 0;
const THEME_KEY = 'messenger.theme';

function initialTheme(): ThemeChoice {
  const t = localStorage.getItem(THEME_KEY);
  return t === 'light' || t === 'dark' ? t : 'system';
}

export const createUiSlice: StateCreator<Store, [], [], UiSlice> = (set, get) => ({
  view: 'chats',
  theme: initialTheme(),
  toasts: [],
  showView: (view) => set({ view }),
  chooseTheme: (theme) => {
    // A display preference, not domain data: it may live in the page's own storage.
    localStorage.setItem(THEME_KEY, theme);
    set({ theme });
  },
  showToast: (tone, text, action) => {
    const id = ++toastSeq;
    set((s) => ({ toasts: [...s.toasts.slice(-3), { id, tone, text, ...(action ? { action } : {}) }] }));
    // a notice with a button stays long enough to reach it by keyboard, and while it has the focus
    const dismissLater = (ms: number) =>
      setTimeout(() => {
        if (action && document.activeElement?.closest(`[data-toast="${id}"]`)) return dismissLater(2000);
        get().dismissToast(id);
      }, ms);
    dismissLater(action ? 12_000 : tone === 'error' ? 7000 : 4000);
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
});
