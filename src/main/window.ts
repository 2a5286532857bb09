/**
 * The main window and everything that keeps its page in its box: sandbox, context isolation,
 * no Node, a strict CSP (in index.html, and as a header for anything served), no navigation,
 * no new windows (http(s) links go to the system browser), and every permission refused.
 * The decisions themselves are pure functions in shell-guards.ts, tested without Electron.
 */
import { app, BrowserWindow, session, shell, type Session, type WebContents } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as guards from './shell-guards.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The page's own URL: the dev server only in an unpackaged app, the built file otherwise. */
export function rendererUrl(): string {
  return guards.rendererUrl({
    packaged: app.isPackaged,
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    builtIndexPath: join(here, '../renderer/index.html'),
  });
}

export function isOurPage(url: string): boolean {
  return guards.isOurPage(url, rendererUrl());
}

export function hardenSession(s: Session = session.defaultSession): void {
  s.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  s.setPermissionCheckHandler(() => false);
  s.setDevicePermissionHandler(() => false);
  s.setDisplayMediaRequestHandler((_req, callback) => callback({}));
  // No downloads: nothing in this app offers a file.
  s.on('will-download', (e) => e.preventDefault());
}

function hardenContents(wc: WebContents): void {
  const ours = rendererUrl();
  wc.setWindowOpenHandler(({ url }) => {
    const external = guards.externalLinkToOpen(url);
    if (external) void shell.openExternal(external);
    return { action: 'deny' };
  });
  wc.on('will-navigate', (e, url) => {
    if (!guards.mayNavigate(url, wc.getURL(), ours)) e.preventDefault();
  });
  wc.on('will-redirect', (e) => {
    if (!guards.mayRedirect()) e.preventDefault();
  });
  wc.on('will-attach-webview', (e) => e.preventDefault());
  wc.on('will-frame-navigate', (e) => {
    if (!guards.mayFrameNavigate(e.isMainFrame) || !guards.mayNavigate(e.url, wc.getURL(), ours)) e.preventDefault();
  });
  // DevTools stay shut in a built app even if a shortcut or a debugger port asks for them.
  if (!guards.devToolsAllowed(app.isPackaged)) wc.on('devtools-opened', () => wc.closeDevTools());
}

export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1180,
    height: 780,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Relay Messenger',
    backgroundColor: '#0e1015',
    autoHideMenuBar: true,
    // out/main → the project's resources/ folder (packaged builds ship it beside the app).
    icon: join(here, '../../resources/icon.png'),
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      devTools: guards.devToolsAllowed(app.isPackaged),
    },
  });
  hardenContents(win.webContents);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl());
  return win;
}
