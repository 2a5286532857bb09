/**
 * `npm run bot -- --relay URL --token-env VAR --group ID [--profile DIR] [--fingerprint FP]
 * [--passphrase-env VAR] <text>`: posts <text> into the group as a bot (see bot.ts) and prints
 * `{ messageId, from, groupId, via, relaySender, devices: [{ address, deviceKey, routed }] }`.
 * Without --profile the bot uses a throw-away wallet for this one post.
 *
 * The token is read from the environment variable named by --token-env: a command line is
 * readable by every user of the machine (`ps`, /proc/<pid>/cmdline). `--token gtk_live_…`
 * still works, with a warning on stderr saying so.
 */
import { parseArgs } from 'node:util';
import { postAsBot } from './bot.js';
import { DEFAULT_PASSPHRASE_ENV, UsageError, fail, passphraseFromEnv, printJson } from './cli-support.js';

const PROG = 'bot';
const USAGE = `usage: npm run bot -- --relay URL --token-env VAR --group ID [--profile DIR] [--fingerprint FP] [--passphrase-env VAR] <text>

  --token-env VAR the group's bot token (gtk_live_…) is read from this environment variable
  --token T       the token itself; works, but other users of this computer can read it in the process list
  --profile DIR   the bot's own wallet lives here (created on first run); default: a temporary wallet
  passphrase      from the variable named by --passphrase-env (default ${DEFAULT_PASSPHRASE_ENV}); unset = empty
`;

/** The bot token: from the named variable, or (warned about) from the command line. */
function tokenFrom(values: { token?: string; 'token-env'?: string }): string {
  if (values.token !== undefined && values['token-env'] !== undefined)
    throw new UsageError('give either --token-env VAR or --token, not both');
  let token: string | undefined;
  if (values['token-env'] !== undefined) {
    token = process.env[values['token-env']];
    if (!token)
      throw new UsageError(`the environment variable ${values['token-env']} (named by --token-env) is not set`);
  } else if (values.token !== undefined) {
    process.stderr.write(
      `${PROG}: warning: --token puts the bot token in this process's command line, which other users of this computer can read (ps, /proc); use --token-env VAR instead\n`,
    );
    token = values.token;
  }
  if (!token || !token.startsWith('gtk_live_'))
    throw new UsageError('a bot token (gtk_live_...) is required: --token-env VAR names the variable that holds it');
  return token;
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        relay: { type: 'string' },
        token: { type: 'string' },
        'token-env': { type: 'string' },
        group: { type: 'string' },
        profile: { type: 'string' },
        fingerprint: { type: 'string' },
        'passphrase-env': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!values.relay) throw new UsageError('--relay URL is required');
  const token = tokenFrom(values);
  if (!values.group || !/^[0-9a-fA-F-]{36}$/.test(values.group)) throw new UsageError('--group <uuid> is required');
  const text = positionals.join(' ');
  if (text.length === 0) throw new UsageError('the text to post is required');
  const passphrase = values.profile ? passphraseFromEnv(values['passphrase-env'], PROG) : '';
  printJson(
    await postAsBot({
      relayUrl: values.relay,
      fingerprint: values.fingerprint ?? null,
      token,
      groupId: values.group,
      text,
      profileDir: values.profile ?? null,
      passphrase,
    }),
  );
}

main(process.argv.slice(2)).catch((e: unknown) => fail(PROG, e, USAGE));
