/** Where the relay CLI lives: TypeScript source under tsx (web mode, tests), or the built file beside Electron's main. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RelayLauncher } from './embedded-relay.js';
import { utilityProcessSpawner, type UtilityFork } from './relay-process.js';

export function sourceRelayLauncher(): RelayLauncher {
  const modulePath = fileURLToPath(new URL('../relay/cli.ts', import.meta.url));
  return { modulePath, execArgv: ['--import', import.meta.resolve('tsx')] };
}

/**
 * The relay that matches the running code: the TypeScript source under tsx when this module is
 * source, else relay-cli.js of the same build (out/node/<build>, see .config/build-node.mjs).
 */
export function relayLauncherBesideThisCode(): RelayLauncher {
  if (import.meta.url.endsWith('.ts')) return sourceRelayLauncher();
  return builtRelayLauncher(fileURLToPath(new URL('.', import.meta.url)));
}

/** `builtDir` holds relay-cli.js (electron-vite's out/main). */
export function builtRelayLauncher(builtDir: string, env?: NodeJS.ProcessEnv): RelayLauncher {
  const modulePath = `${builtDir}/relay-cli.js`;
  if (!existsSync(modulePath)) throw new Error(`relay entry missing: ${modulePath}`);
  return { modulePath, execArgv: [], env };
}

/**
 * The Electron shell's relay: relay-cli.js beside its main, started as a utility process
 * (`utilityFork` is Electron's `utilityProcess.fork`, handed in by index.ts), since a packaged
 * app's fuses leave `child_process.fork` no way to run Node (relay-process.ts).
 */
export function electronRelayLauncher(
  builtDir: string,
  env: NodeJS.ProcessEnv,
  utilityFork: UtilityFork,
): RelayLauncher {
  return { ...builtRelayLauncher(builtDir, env), spawn: utilityProcessSpawner(utilityFork) };
}
