/**
 * `npm run bot -- --relay URL --token gtk_live_... --group ID [--profile DIR] [--fingerprint FP]
 * [--passphrase-env VAR] <text>`: posts <text> into the group as a bot (see bot.ts) and prints
 * `{ messageId, from, groupId, via, relaySender, devices: [{ address, deviceKey, routed }] }`.
 * Without --profile the bot uses a throw-away wallet for this one post.
 */
import { parseArgs } from 'node:util';
import { postAsBot } from './bot.js';
import { DEFAULT_PASSPHRASE_ENV, UsageError, fail, passphraseFromEnv, printJson } from './cli-support.js';

const PROG = 'bot';
const USAGE = `usage: npm run bot -- --relay URL --token gtk_live_... --group ID [--profile DIR] [--fingerprint FP] [--passphrase-env VAR] <text>

  --profile DIR   the bot's own wallet lives here (created on first run); default: a temporary wallet
  passphrase      from the variable named by --passphrase-env (default ${DEFAULT_PASSPHRASE_ENV}); unset = empty
`;

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
  if (!values.token || !values.token.startsWith('gtk_live_')) throw new UsageError('--token gtk_live_... is required');
  if (!values.group || !/^[0-9a-fA-F-]{36}$/.test(values.group)) throw new UsageError('--group <uuid> is required');
  const text = positionals.join(' ');
  if (text.length === 0) throw new UsageError('the text to post is required');
  const passphrase = values.profile ? passphraseFromEnv(values['passphrase-env'], PROG) : '';
  printJson(await postAsBot({ relayUrl: values.relay, fingerprint: values.fingerprint ?? null, token: values.token, groupId: values.group, text, profileDir: values.profile ?? null, passphrase }));
}

main(process.argv.slice(2)).catch((e: unknown) => fail(PROG, e, USAGE));
