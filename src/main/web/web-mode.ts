/**
 * Web mode: the same services as the desktop app, under plain Node, with the built renderer
 * served on 127.0.0.1 and the contract carried over a local WebSocket. Keys and crypto stay
 * in this process (and the vault's worker) exactly as in Electron.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppServices } from '../app-core/app-services.js';
import { relayLauncherBesideThisCode } from '../app-core/relay-launcher.js';
import { isCommandName } from '../commands/dispatch.js';
import type { Handler, Handlers } from '../commands/handler-types.js';
import type { CommandName } from '../../shared/ipc.js';
import { openInBrowser } from './open-link.js';
import { newControlToken, writeControlFile } from './web-control.js';
import { startWebServer, type RunningWebServer } from './web-server.js';

/** The folder with package.json above this code: src/main/web from source, out/node/<build> when built. */
export const projectRoot = findProjectRoot(fileURLToPath(new URL('.', import.meta.url)));

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
export const webBuildDir = join(projectRoot, 'out/web');

export interface WebModeOptions {
  port: number;
  dataDir: string;
  open: boolean;
  pollIntervalMs?: number;
}

/** Where Electron keeps its profile, so both shells open the same one by default. */
export function defaultDataDir(): string {
  const name = 'relay-messenger';
  if (process.platform === 'darwin') return join(homedir(), 'Library/Application Support', name);
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData/Roaming'), name);
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), name);
}

/** What the web build is made from: the renderer, the shared contract it imports, and the build's config. */
const WEB_INPUTS = ['src/renderer', 'src/shared', '.config/vite.web.config.ts'];

/** The newest modification time under `path` (a file or a folder), 0 when it is missing. */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(path, { withFileTypes: true }))
    newest = Math.max(newest, newestChange(join(path, e.name)));
  return newest;
}

/** Whether `root`'s web build exists and is newer than every file it is made from. */
export function webBuildState(root: string): 'current' | 'stale' | 'missing' {
  const index = join(root, 'out/web/index.html');
  if (!existsSync(index)) return 'missing';
  const builtAt = statSync(index).mtimeMs;
  return WEB_INPUTS.every((input) => newestChange(join(root, input)) <= builtAt) ? 'current' : 'stale';
}

/** The built web app, built again when a file it is made from changed since (a pull, an edit): never a stale page. */
export async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  const state = webBuildState(projectRoot);
  if (state === 'current') return;
  log(state === 'missing' ? 'building the web app (first run)…' : 'building the web app (its sources changed)…');
  const { build } = await import('vite');
  await build({ configFile: join(projectRoot, '.config/vite.web.config.ts'), logLevel: 'warn' });
}

/**
 * The web server listens while the services start (the relay child, the vault worker, the
 * local database and an unlock's key derivation), so the browser loads the page meanwhile:
 * `onListening` gets the link at once, and calls that arrive early wait for the services.
 */
export async function runWebMode(
  opts: WebModeOptions & { onListening?: (server: RunningWebServer) => void },
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<{ services: AppServices; server: RunningWebServer; close: () => Promise<void>; hurry: () => void }> {
  await ensureWebBuild(log);
  const starting = AppServices.start({
    dataDir: opts.dataDir,
    shell: 'web',
    relayLauncher: relayLauncherBesideThisCode(),
    openExternal: async (url) => openInBrowser(url),
    ...(opts.pollIntervalMs ? { pollIntervalMs: opts.pollIntervalMs } : {}),
  });
  // dispatch() checks the name against the contract before it asks for a handler
  const forward =
    <K extends CommandName>(name: K): Handler<K> =>
    async (args) =>
      (await starting).handlers[name](args);
  const handlers = new Proxy({} as Handlers, {
    get: (_target, name) => (isCommandName(name) ? forward(name) : undefined),
  });
  const subscribe = (fn: Parameters<AppServices['onEvent']>[0]) => {
    let off: (() => void) | null = null;
    let gone = false;
    starting.then(
      (s) => (gone ? undefined : (off = s.onEvent(fn))),
      () => undefined,
    );
    return () => {
      gone = true;
      off?.();
    };
  };
  let server: RunningWebServer;
  const controlToken = newControlToken();
  try {
    server = await startWebServer({
      staticDir: webBuildDir,
      handlers,
      subscribe,
      port: opts.port,
      onLaunchCodeUsed: () => log('the launch link was used to open the app; it will not work again'),
      controlToken,
      onNewLink: () => log('a new link was made (--new-link); the session of the old one has ended'),
    });
  } catch (e) {
    await starting.then(
      (s) => s.close(),
      () => undefined,
    );
    throw e;
  }
  opts.onListening?.(server);
  let services: AppServices;
  try {
    services = await starting;
  } catch (e) {
    await server.close();
    throw e;
  }
  // only now, with the profile lock held: a second server of this folder never replaces it
  let removeControl: () => void = () => undefined;
  try {
    removeControl = writeControlFile(opts.dataDir, server.port, controlToken);
  } catch (e) {
    log(`--new-link will not reach this server: ${(e as Error).message}`);
  }
  return {
    services,
    server,
    // the services first: closing marks them closed at once, so a relay child that exits
    // meanwhile is not started again; the page's socket goes with the server beside it
    close: async () => {
      removeControl();
      const closing = services.close();
      await server.close();
      await closing;
    },
    hurry: () => services.hurryClose(),
  };
}
