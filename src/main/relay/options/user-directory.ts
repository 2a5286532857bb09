/**
 * Where the operator stood when they ran the command, for relative paths (`--data`, `--config`,
 * `--blob-dir`). `npm run relay` runs the script from the package root and leaves where the user
 * stood in INIT_CWD; a process that merely inherited npm's variables (a tool started from an
 * npm script, running elsewhere) is not in the package root, and its own folder counts.
 */
import { dirname, isAbsolute, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

export function userDirectory(env: Env, cwd: string): string {
  const init = env.INIT_CWD;
  if (!init || !isAbsolute(init)) return cwd;
  const pkg = env.npm_package_json;
  if (pkg && resolve(dirname(pkg)) !== resolve(cwd)) return cwd;
  return init;
}

/** `path` made absolute against `base` (an absolute path stays as it is). */
export function absolutePath(base: string, path: string): string {
  return resolve(base, path);
}
