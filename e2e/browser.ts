/** Which Chromium the tests drive: $CHROMIUM_PATH, then `chromium` on PATH (Debian's), then Playwright's own. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (path && existsSync(path)) return path;
    } catch {
      // not on PATH
    }
  }
  return undefined; // Playwright's bundled browser, when installed
}
