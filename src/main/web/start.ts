/**
 * `npm start`: the desktop app when an Electron binary is installed, web mode otherwise
 * (this machine, CI, or a setup whose Electron download failed).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { main as webMain } from './web-command.js';
import { projectRoot } from './web-mode.js';

function electronBinary(): string | null {
  try {
    // The electron package exports the binary's path, and throws when the download never happened.
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const electron = electronBinary();
if (electron) {
  const run = () => {
    const child = spawn(electron, [projectRoot], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
  };
  if (existsSync(join(projectRoot, 'out/main/index.js'))) run();
  else {
    const build = spawn(
      process.execPath,
      [join(projectRoot, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
      { stdio: 'inherit', cwd: projectRoot },
    );
    build.on('exit', (code) => (code === 0 ? run() : process.exit(code ?? 1)));
  }
} else {
  process.stderr.write('Electron is not installed on this machine; starting web mode instead.\n');
  void webMain(process.argv.slice(2));
}
