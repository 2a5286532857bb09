/**
 * The main window and everything that keeps its page in its box: sandbox, context isolation,
 * no Node, a strict CSP (in index.html, and as a header for anything served), no navigation,
 * no new windows (http(s) links go to the system browser), and every permission refused.
 */
import { BrowserWindow, session, shell, type Session, type WebContents } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The page's own origin: the dev server in development, the built file otherwise. */
export function rendererUrl(): string {
  const dev = process.env.ELECTRON_RENDERER_URL;
  if (dev && !process.env.NODE_ENV?.startsWith('prod')) return dev;
  return new URL(`file://${join(here, '../renderer/index.html')}`).href;
}

export function isOurPage(url: string): boolean {
  const ours = new URL(rendererUrl());
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (ours.protocol === 'file:') return u.protocol === 'file:' && u.pathname === ours.pathname;
  return u.origin === ours.origin;
}

export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
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
  wc.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  wc.on('will-navigate', (e, url) => {
    if (!isOurPage(url) || url !== wc.getURL()) e.preventDefault();
  });
  wc.on('will-redirect', (e) => e.preventDefault());
  wc.on('will-attach-webview', (e) => e.preventDefault());
  wc.on('will-frame-navigate', (e) => {
    if (!e.isMainFrame) e.preventDefault();
  });
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
      devTools: !process.env.NODE_ENV?.startsWith('prod'),
    },
  });
  hardenContents(win.webContents);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl());
  return win;
}
