/**
 * Opening a web link in the person's browser from web mode (the launch link, links in
 * messages), with no shell on any platform. A shell reads its own syntax in the link: under
 * `cmd /c start`, a `&` or `|` in a URL runs what follows as a command. So the link goes to
 * the platform's opener as one argument of a process started directly: `open` on macOS,
 * `xdg-open` elsewhere, and on Windows `rundll32 url.dll,FileProtocolHandler`, which hands the
 * text after its first argument to the browser as it is. Only http(s) links are opened, in the
 * URL parser's own spelling, which percent-encodes quotes and spaces: nothing in the argument
 * can end it early or be read as an option.
 */
import { spawn } from 'node:child_process';

export interface OpenCommand {
  command: string;
  args: string[];
}

/** The opener and its arguments for `url` on `platform`; throws unless `url` is an http(s) URL. */
export function openCommand(url: string, platform: NodeJS.Platform): OpenCommand {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('only web links are opened');
  const href = parsed.href;
  if (platform === 'darwin') return { command: 'open', args: [href] };
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', href] };
  return { command: 'xdg-open', args: [href] };
}

type Spawn = (
  command: string,
  args: string[],
  options: { stdio: 'ignore'; detached: boolean; shell: false; windowsHide: boolean },
) => { on(event: 'error', fn: () => void): unknown; unref(): void };

/** Opens `url` in the default browser, without waiting for it (a browser may run for hours). */
export function openInBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
  start: Spawn = (command, args, options) => spawn(command, args, options),
): void {
  const { command, args } = openCommand(url, platform);
  const child = start(command, args, { stdio: 'ignore', detached: true, shell: false, windowsHide: true });
  // no opener installed (a server without a desktop): the printed link is still there
  child.on('error', () => undefined);
  child.unref();
}
