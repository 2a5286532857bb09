/**
 * Electron's one IPC doorway (the one door between the window and main, hence the name): a
 * single `ipcMain.handle('ipc')` that answers only the main
 * frame of our own window showing our own page, validates the command and its arguments
 * against the contract (dispatch), and returns `{ ok, value } | { ok: false, error }`.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { EventName, Events, IpcResult } from '../../shared/ipc.js';
import { isOurPage } from '../window.js';
import { dispatch } from '../commands/dispatch.js';
import type { Handlers } from '../commands/handler-types.js';

function refuse(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'forbidden-sender', message } };
}

export function installDoorway(getWindow: () => BrowserWindow | null, handlers: Handlers): () => void {
  ipcMain.handle('ipc', async (event: IpcMainInvokeEvent, name: unknown, args: unknown) => {
    const win = getWindow();
    const frame = event.senderFrame;
    // Only our window's web contents: another window (there are none today) gets nothing.
    if (!win || event.sender !== win.webContents) return refuse('Unknown window.');
    // Only the top frame: the page has no iframes, and an injected one must not reach main.
    if (!frame || frame !== win.webContents.mainFrame) return refuse('Sub-frames may not call the app.');
    // Only our page: a navigation that slipped through must not inherit the bridge.
    if (!isOurPage(frame.url)) return refuse('Unknown page.');
    return dispatch(handlers, name, args);
  });
  return () => ipcMain.removeHandler('ipc');
}

export function pushEvent<E extends EventName>(win: BrowserWindow | null, event: E, payload: Events[E]): void {
  if (win && !win.isDestroyed()) win.webContents.send('event', event, payload);
}
