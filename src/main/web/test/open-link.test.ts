/**
 * Web mode opens links without a shell on every platform: the opener gets the link as one
 * argument, in the URL parser's spelling, so `&`, `|`, `"` and `^` in a link are never read as
 * shell syntax; anything but an http(s) link is refused.
 */
import { describe, expect, it } from 'vitest';
import { openCommand, openInBrowser } from '../open-link.js';

const TRICKY = [
  'http://127.0.0.1:5199/#code=abc&calc.exe',
  'https://example.org/a|b?x=1&y=2|whoami',
  'https://example.org/"&start calc"',
  'http://example.org/?q=^&^|echo "pwned"',
  'https://example.org/#frag" & del /q C:\\ | ^x',
];

const SHELLS = /^(cmd|cmd\.exe|sh|bash|powershell|pwsh)$/i;

describe('opening a link in the browser', () => {
  for (const platform of ['win32', 'darwin', 'linux', 'freebsd'] as const) {
    it(`on ${platform} runs an opener with the link as one plain argument`, () => {
      for (const url of TRICKY) {
        const href = new URL(url).href;
        const { command, args } = openCommand(url, platform);
        expect(command).not.toMatch(SHELLS);
        expect(args).not.toContain('/c');
        expect(args.at(-1)).toBe(href);
        expect(args.filter((a) => a.includes('example.org') || a.includes('127.0.0.1'))).toEqual([href]);
        // nothing that could end the argument early on a Windows command line
        for (const a of args) expect(a).not.toMatch(/["\s]/);
      }
    });
  }

  it('names the opener of each platform', () => {
    const url = 'http://127.0.0.1:5199/#code=a&b|c"d^e';
    const href = 'http://127.0.0.1:5199/#code=a&b|c%22d^e';
    expect(openCommand(url, 'win32')).toEqual({ command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', href] });
    expect(openCommand(url, 'darwin')).toEqual({ command: 'open', args: [href] });
    expect(openCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [href] });
  });

  it('refuses anything but an http(s) link', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ms-settings:',
      'calc.exe & whoami',
      '-a Calculator',
    ])
      for (const platform of ['win32', 'darwin', 'linux'] as const) expect(() => openCommand(url, platform)).toThrow();
  });

  it('starts the opener itself, never through a shell', () => {
    const calls: { command: string; args: string[]; options: { shell: false; detached: boolean } }[] = [];
    const start = (command: string, args: string[], options: { shell: false; detached: boolean }) => {
      calls.push({ command, args, options });
      return { on: () => undefined, unref: () => undefined };
    };
    openInBrowser('https://example.org/?a=1&b=2', 'win32', start);
    expect(calls).toEqual([
      {
        command: 'rundll32.exe',
        args: ['url.dll,FileProtocolHandler', 'https://example.org/?a=1&b=2'],
        options: expect.objectContaining({ shell: false, detached: true }),
      },
    ]);
  });
});
