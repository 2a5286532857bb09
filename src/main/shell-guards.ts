/**
 * The Electron shell's decisions, as pure functions of plain values, so that each is tested
 * without an Electron binary (src/main/test/shell-guards.test.ts) and window.ts, doorway.ts
 * and index.ts only wire them to Electron's events. Nothing here imports `electron`.
 *
 * - Which page the window shows, and whether DevTools open: the dev server and DevTools only
 *   in an unpackaged (development) app; `NODE_ENV` is not set by a normal launch, so it
 *   cannot be what turns them off.
 * - Where the page may go: nowhere but our own page. `file:` (other than our own built
 *   index.html), `javascript:`, `data:`, `blob:` and every foreign origin are refused.
 * - What leaves for the system browser: `http(s)` links only, never `file:` or a scheme
 *   handler.
 * - Whether the OS keychain protects the vault: not when Linux's safeStorage fell back to
 *   `basic_text` (a password hard-coded in Chromium), which would make the vault's data key
 *   readable by anyone who can read the profile; the passphrase protects it instead.
 */

export interface RendererSource {
  /** `app.isPackaged` */
  packaged: boolean;
  /** `ELECTRON_RENDERER_URL`, set by electron-vite's dev server */
  devServerUrl: string | undefined;
  /** absolute path of the built renderer's index.html */
  builtIndexPath: string;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The page the window loads: the dev server only in an unpackaged app, and only on loopback
 * (an environment variable must not be able to point a built app at someone else's page).
 */
export function rendererUrl(src: RendererSource): string {
  if (!src.packaged && src.devServerUrl) {
    const dev = parse(src.devServerUrl);
    if (dev && (dev.protocol === 'http:' || dev.protocol === 'https:') && LOOPBACK_HOSTS.has(dev.hostname))
      return dev.href;
  }
  return fileUrl(src.builtIndexPath);
}

function fileUrl(path: string): string {
  const u = new URL('file://');
  u.pathname = path.split('\\').join('/');
  return u.href;
}

/** DevTools only while developing. */
export function devToolsAllowed(packaged: boolean): boolean {
  return !packaged;
}

/** Schemes a page of ours never is, whatever the rest of the URL says. */
const NEVER_OURS = new Set(['javascript:', 'data:', 'blob:', 'about:', 'chrome:', 'devtools:', 'view-source:']);

/** Whether `url` is our own page (the built file, or the dev server's origin). */
export function isOurPage(url: string, ourUrl: string): boolean {
  const u = parse(url);
  const ours = parse(ourUrl);
  if (!u || !ours || NEVER_OURS.has(u.protocol)) return false;
  if (ours.protocol === 'file:') return u.protocol === 'file:' && u.host === '' && u.pathname === ours.pathname;
  return u.protocol === ours.protocol && u.origin === ours.origin;
}

/**
 * `will-navigate`: the page may only reload itself. Everything else (another origin, another
 * file, a `javascript:` or `data:` URL) is refused; links leave through the window-open
 * handler, never by navigating the app's own window.
 */
export function mayNavigate(target: string, current: string, ourUrl: string): boolean {
  return isOurPage(target, ourUrl) && stripHash(target) === stripHash(current);
}

function stripHash(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/** `will-redirect`: our page never redirects, so a redirect is somebody else's doing. */
export function mayRedirect(): boolean {
  return false;
}

/** `will-frame-navigate`: the page has no frames; only the main frame may move (and then `mayNavigate` decides). */
export function mayFrameNavigate(isMainFrame: boolean): boolean {
  return isMainFrame;
}

/**
 * `setWindowOpenHandler`: no new windows ever; an `http(s)` link is handed to the system
 * browser (returned here), anything else (`file:`, `javascript:`, `data:`, custom schemes
 * that would start another program) is dropped (null).
 */
export function externalLinkToOpen(url: string): string | null {
  const u = parse(url);
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) return null;
  if (u.username || u.password) return null;
  return u.href;
}

/** The parts of Electron's safeStorage the decision needs. */
export interface SafeStorageProbe {
  isEncryptionAvailable(): boolean;
  /** Linux only */
  getSelectedStorageBackend?: () => string;
}

/** Why the OS keychain does not protect the vault (shown to the user), or null when it does. */
export type KeychainRefusal = 'basic_text' | 'unavailable' | null;

/**
 * Whether to wrap the vault's data key with safeStorage. On Linux without a secret service,
 * safeStorage "works" with `basic_text`, a fixed password compiled into Chromium: that is no
 * protection, so the passphrase is used instead. `unknown` (asked before `ready`) is not
 * trusted either.
 */
export function keychainRefusal(s: SafeStorageProbe, platform: NodeJS.Platform): KeychainRefusal {
  if (!s.isEncryptionAvailable()) return 'unavailable';
  if (platform === 'linux') {
    const backend = s.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text') return 'basic_text';
    if (backend === 'unknown') return 'unavailable';
  }
  return null;
}

/**
 * Whether this launch hands the vault the keychain codec. A vault created earlier under the
 * keychain codec can only be opened with it, so it is still given for that vault (the user is
 * told its protection is weak); new vaults under a refused keychain use the passphrase.
 */
export function useKeychainCodec(refusal: KeychainRefusal, existingProtection: 'passphrase' | 'codec' | null): boolean {
  if (refusal === null) return true;
  return refusal === 'basic_text' && existingProtection === 'codec';
}
