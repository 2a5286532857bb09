/**
 * Electron main: thin. One instance per user; the services (relay, vault, client) start here
 * and speak to the window through one guarded doorway. Everything that can run without
 * Electron lives in src/main/app-core and is shared with web mode.
 */
import { app, BrowserWindow, dialog, Notification, safeStorage, shell, utilityProcess } from 'electron';
import { fileURLToPath } from 'node:url';
import { installDoorway, pushEvent } from './ipc/doorway.js';
import { safeStorageCodec } from './safe-storage-codec.js';
import { AppServices } from './app-core/app-services.js';
import { electronRelayLauncher } from './app-core/relay-launcher.js';
import { configureSqliteBinding } from './sqlite/sqlite-binding.js';
import { keychainRefusal } from './shell-guards.js';
import { createMainWindow, hardenSession } from './window.js';

const here = fileURLToPath(new URL('.', import.meta.url));
let win: BrowserWindow | null = null;
let services: AppServices | null = null;
/** shown notifications, held so that one is not collected (and its click lost) while on screen */
const notifications = new Set<Notification>();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  // Nothing in this app needs a web view of anyone else's content.
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (ev) => ev.preventDefault());
  });

  void app.whenReady().then(async () => {
    hardenSession();
    const sqliteEnv = configureSqliteBinding(process.resourcesPath, here);
    try {
      services = await AppServices.start({
        dataDir: process.env.RELAY_MESSENGER_PROFILE ?? app.getPath('userData'),
        shell: 'electron',
        // a utility process: with the runAsNode fuse off, child_process.fork cannot run Node here
        relayLauncher: electronRelayLauncher(here, sqliteEnv, (path, args, options) =>
          utilityProcess.fork(path, args, options),
        ),
        keychain: { codec: safeStorageCodec(safeStorage), refusal: keychainRefusal(safeStorage, process.platform) },
        openExternal: (url) => shell.openExternal(url),
        chooseSavePath: async (defaultPath, filters) => {
          const options = { defaultPath, ...(filters ? { filters } : {}) };
          const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
          return r.canceled || !r.filePath ? null : r.filePath;
        },
        notify: ({ title, body, onClick }) => {
          if (!Notification.isSupported()) return false;
          const n = new Notification({ title, body, silent: false });
          notifications.add(n);
          n.on('close', () => notifications.delete(n));
          n.on('click', () => {
            notifications.delete(n);
            if (win?.isMinimized()) win.restore();
            win?.focus();
            onClick();
          });
          n.show();
          return true;
        },
      });
    } catch (e) {
      dialog.showErrorBox('Relay Messenger could not start', e instanceof Error ? e.message : String(e));
      app.exit(1);
      return;
    }
    services.onEvent((event, payload) => pushEvent(win, event, payload));
    installDoorway(() => win, services.handlers);
    win = createMainWindow();
    win.on('closed', () => {
      win = null;
    });
  });

  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('before-quit', (e) => {
    if (quitting || !services) return;
    // Let the relay checkpoint and the outbox settle before the process goes.
    e.preventDefault();
    quitting = true;
    void services.close().finally(() => app.quit());
  });
}
