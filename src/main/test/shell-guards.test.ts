/**
 * The Electron shell's guards as pure functions: each refusal the window, the doorway and
 * the launch rely on, checked without an Electron binary. (e2e/electron.e2e.ts drives the
 * same guards through a real window where the binary exists.)
 */
import { describe, expect, it } from 'vitest';
import {
  devToolsAllowed,
  externalLinkToOpen,
  isOurPage,
  keychainRefusal,
  mayFrameNavigate,
  mayNavigate,
  mayRedirect,
  rendererUrl,
  useKeychainCodec,
} from '../shell-guards.js';

const BUILT = '/opt/Relay Messenger/resources/app/out/renderer/index.html';
const builtUrl = rendererUrl({ packaged: true, devServerUrl: undefined, builtIndexPath: BUILT });
const devUrl = 'http://localhost:5173/';

describe('which page and whether DevTools', () => {
  it('a packaged app loads its built file, whatever ELECTRON_RENDERER_URL says', () => {
    expect(builtUrl).toBe('file:///opt/Relay%20Messenger/resources/app/out/renderer/index.html');
    expect(rendererUrl({ packaged: true, devServerUrl: 'http://localhost:5173/', builtIndexPath: BUILT })).toBe(
      builtUrl,
    );
    expect(rendererUrl({ packaged: true, devServerUrl: 'https://evil.example/', builtIndexPath: BUILT })).toBe(
      builtUrl,
    );
  });

  it('an unpackaged app uses the dev server, and only one on loopback', () => {
    expect(rendererUrl({ packaged: false, devServerUrl: devUrl, builtIndexPath: BUILT })).toBe(devUrl);
    expect(rendererUrl({ packaged: false, devServerUrl: 'http://127.0.0.1:5173', builtIndexPath: BUILT })).toBe(
      'http://127.0.0.1:5173/',
    );
    expect(rendererUrl({ packaged: false, devServerUrl: 'https://evil.example/', builtIndexPath: BUILT })).toBe(
      builtUrl,
    );
    expect(rendererUrl({ packaged: false, devServerUrl: 'javascript:alert(1)', builtIndexPath: BUILT })).toBe(builtUrl);
    expect(rendererUrl({ packaged: false, devServerUrl: undefined, builtIndexPath: BUILT })).toBe(builtUrl);
  });

  it('DevTools only in an unpackaged app', () => {
    expect(devToolsAllowed(true)).toBe(false);
    expect(devToolsAllowed(false)).toBe(true);
  });
});

describe('isOurPage (the doorway answers only our page)', () => {
  it('accepts our built file and refuses other files, javascript:, data: and foreign origins', () => {
    expect(isOurPage(builtUrl, builtUrl)).toBe(true);
    expect(isOurPage(`${builtUrl}#/settings`, builtUrl)).toBe(true);
    expect(isOurPage('file:///etc/passwd', builtUrl)).toBe(false);
    expect(isOurPage('file:///tmp/index.html', builtUrl)).toBe(false);
    expect(isOurPage(builtUrl.replace('file:///', 'file://attacker/'), builtUrl)).toBe(false);
    expect(isOurPage('javascript:alert(1)', builtUrl)).toBe(false);
    expect(isOurPage('data:text/html,<script>alert(1)</script>', builtUrl)).toBe(false);
    expect(isOurPage('blob:file:///0000', builtUrl)).toBe(false);
    expect(isOurPage('https://example.com/', builtUrl)).toBe(false);
    expect(isOurPage('not a url', builtUrl)).toBe(false);
  });

  it('with the dev server: the same origin only', () => {
    expect(isOurPage('http://localhost:5173/index.html', devUrl)).toBe(true);
    expect(isOurPage('http://localhost:5174/', devUrl)).toBe(false);
    expect(isOurPage('http://127.0.0.1:5173/', devUrl)).toBe(false);
    expect(isOurPage('file:///etc/passwd', devUrl)).toBe(false);
    expect(isOurPage('javascript:location.href', devUrl)).toBe(false);
    expect(isOurPage('data:text/html,hi', devUrl)).toBe(false);
  });
});

describe('mayNavigate (will-navigate, will-frame-navigate)', () => {
  it('lets the page reload itself and nothing else', () => {
    expect(mayNavigate(builtUrl, builtUrl, builtUrl)).toBe(true);
    expect(mayNavigate(`${builtUrl}#x`, builtUrl, builtUrl)).toBe(true);
    expect(mayNavigate('https://example.com/', builtUrl, builtUrl)).toBe(false);
    expect(mayNavigate('file:///home/me/.ssh/id_ed25519', builtUrl, builtUrl)).toBe(false);
    expect(mayNavigate('javascript:alert(document.cookie)', builtUrl, builtUrl)).toBe(false);
    expect(mayNavigate('data:text/html;base64,PHNjcmlwdD4=', builtUrl, builtUrl)).toBe(false);
    expect(mayNavigate('http://localhost:5173/other', devUrl, devUrl)).toBe(false);
  });

  it('refuses every redirect and every sub-frame navigation', () => {
    expect(mayRedirect()).toBe(false);
    expect(mayFrameNavigate(false)).toBe(false);
    expect(mayFrameNavigate(true)).toBe(true);
  });
});

describe('externalLinkToOpen (window.open and target=_blank)', () => {
  it('hands http(s) links to the system browser and drops everything else', () => {
    expect(externalLinkToOpen('https://example.com/a?b#c')).toBe('https://example.com/a?b#c');
    expect(externalLinkToOpen('http://example.com')).toBe('http://example.com/');
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'smb://server/share',
      'vscode://open',
      'https://user:pass@example.com/',
      'nonsense',
    ]) {
      expect(externalLinkToOpen(url), url).toBeNull();
    }
  });
});

describe('keychain: which codec protects a new wallet', () => {
  const probe = (available: boolean, backend?: string) => ({
    isEncryptionAvailable: () => available,
    ...(backend ? { getSelectedStorageBackend: () => backend } : {}),
  });

  it('refuses Linux basic_text (a fixed password) and an unknown backend, trusts a real secret store', () => {
    expect(keychainRefusal(probe(true, 'basic_text'), 'linux')).toBe('basic_text');
    expect(keychainRefusal(probe(true, 'unknown'), 'linux')).toBe('unavailable');
    expect(keychainRefusal(probe(false, 'gnome_libsecret'), 'linux')).toBe('unavailable');
    expect(keychainRefusal(probe(true, 'gnome_libsecret'), 'linux')).toBeNull();
    expect(keychainRefusal(probe(true, 'kwallet6'), 'linux')).toBeNull();
    expect(keychainRefusal(probe(true), 'darwin')).toBeNull();
    expect(keychainRefusal(probe(true), 'win32')).toBeNull();
  });

  it('new vaults get the passphrase under a refused keychain; one it already protects keeps it so it still opens', () => {
    expect(useKeychainCodec(null, null)).toBe(true);
    expect(useKeychainCodec('basic_text', null)).toBe(false);
    expect(useKeychainCodec('basic_text', 'passphrase')).toBe(false);
    expect(useKeychainCodec('basic_text', 'codec')).toBe(true);
    expect(useKeychainCodec('unavailable', 'codec')).toBe(false);
  });
});
