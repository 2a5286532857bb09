/** The client CLI's usage text (cli.ts): printed for --help and after a usage error. */
import { DEFAULT_PASSPHRASE_ENV } from './cli-support.js';

export const DEFAULT_UNLOCK_TTL_S = 300;

export const USAGE = `usage: npm run client -- --profile DIR [--passphrase-env VAR] [--unlock-ttl SECONDS] <command> [args]
       (or without npm: node bin/client.mjs --profile DIR ...)

  init --relay URL [--handle NAME] [--fingerprint FP] [--invite CODE|LINK] [--mnemonic-env VAR | --private-key-env VAR] [--show-mnemonic]
                                     create (or import) the wallet, sign in → {address, deviceKey, handle}
                                     --invite: the code (or the whole link, which also gives the relay and
                                     its pin) a relay in invite mode asks of a new wallet
  whoami                             → {address, deviceKey, handle, relay}
  lock                               forget the remembered unlock now → {locked: true}
  handle <name>                      claim or change the handle
  send <0xADDRESS|@handle> <text> [--request] [--stake [MAX]]
  send <0xADDRESS|@handle> --file PATH [--file PATH …] [text]
                                     up to 10 files of at most 25 MiB, encrypted, with text as the caption
                                     → {messageId, to, state, routed, stakeRequired, stakeCurrency, devices:[…]}
                                     state: sent | queued (offline; \`outbox\` sends it) | failed | blocked | stake-required;
                                     exit 1 when nothing was delivered (failed, blocked, stake-required)
                                     --stake: when they ask for a stake (at most MAX, if given), deposit it from this
                                     wallet and send with it → also {stake:{id, amountWei, deadline, …}}
  stakes [--sent|--received]         stakes sent and received, with status (and refundable: true once it can come back)
  stake config                       the relay's chain, the RPC URL used, this wallet's balance there
  stake rpc <URL|relay>              use this RPC URL for the relay's chain (relay: the relay's own again)
  stake refund <id>                  take a sent stake back: accepted by them, or past its deadline
  accept <address>                   accept a contact request; a staked one's stake goes back to its sender
  spam <address>                     a staked request is spam: keep its stake (a transaction; needs gas), block them
  sync [--json] [--follow]           pull until empty; one line per new message
                                     {id, from, groupId, routed, kind, text, sentAt, via[, files]}, with expiresIn
                                     (seconds) when it disappears, timer (seconds, 0 = off) on a timer notice, and one per
                                     message an edit or delete changed {id, conversationId, from, edited, text, editedAt |
                                     deleted}. A message with files is printed once they are fetched and checked: files:
                                     [{name, mime, size, path}] (path: kept encrypted in the profile; a refused one has
                                     error instead)
  save-file <messageId> <index> <PATH>
                                     write a received file's plaintext to PATH → {saved: PATH}
  edit <conversation> <message-id> <text>            edit one of my messages (everywhere) → {…, edited, sent}
  delete <conversation> <message-id>                 delete one of my messages for everyone → {…, deleted, sent}
  timer <conversation> <off|5m|1h|1d|1w>             disappearing messages in that conversation (any N s|m|h|d|w
                                                     from 30s to 4w too) → {conversationId, timerSeconds, sent}
                                     <conversation>: direct:0x… | group:ID | 0xADDRESS | @handle
                                     --follow: keep running (held pulls: each message printed as one JSON
                                     line the moment it is stored; history from another device
                                     is imported as it comes) until Ctrl-C / SIGTERM
  outbox                             send what is queued → one line per message
  requests                           pending contact requests (syncs first; offline, says so and shows the last synced)
  allow <address> | block <address> | unblock <address> | decline <address>
  policy <request|stake-gate|block> [--stake X]
  conversations | messages <conversationId> [--limit N]    (conversations syncs first, like requests)
  search <query> [--conversation ID] [--limit N]
                                     messages stored on this device with every word of the query (word prefixes),
                                     newest first → [{id, conversationId, from, fromMe, sentAt, snippet, matches}]
                                     (local: sync first for what is still on the relay)
  directory <query>
  devices | revoke-device <publicKey>
  history send <deviceKey>           send this device's history (conversations, messages, contacts, groups, settings,
                                     files), sealed to that new device of this wallet → {history: "sent", deviceKey, size,
                                     blobs}; progress as JSON lines on stderr
  history receive                    sync, then import history another device of this wallet sent here (every sync does
                                     too) → {history: "received", fromDevice, conversations, messages} | {history:
                                     "refused", fromDevice, reason} (exit 1; nothing imported) | {history: "none"}
  safety-number <address|@handle>    → {address, safetyNumber: "12345 …" (12 groups of 5), verified, changed, myDevices, theirDevices}
                                     compare it with theirs; changed: their devices changed since you verified them
  verify <address|@handle> [--off]   mark them verified against their current devices (--off: take the mark away;
                                     either lets messages go to them again after a change)
  keys | mint-key <label> | revoke-key <id>
  backup --out FILE --backup-passphrase-env VAR      write an encrypted backup of this profile's history (never the
                                                     wallet key) → {savedTo, bytes, conversations, messages, files}
  restore --in FILE --backup-passphrase-env VAR      restore one into this profile (same wallet, no conversations yet:
                                                     right after init) → {conversations, messages, files}
                                     --backup-passphrase-env names the backup file's passphrase (at least 8
                                     characters); the profile's own comes, as everywhere, from --passphrase-env. Progress: JSON lines on stderr
  group create <name> [--public] [--password-env VAR] → {id, …}; the group password is read from VAR
                                                     (--password P also works, but other users can read it in ps)
  group add <id> <address|@handle>                   → {…, added: member|invited}; invited until they accept
  group remove <id> <address>                        remove a member or withdraw an invitation
  invitations                                        group invitations waiting for my answer
  group accept <id> | group decline <id> [--block]   answer one (--block also blocks the inviter)
  group admin <id> <address> | group unadmin <id> <address>
                                                     creator only: admins add/remove members, edit, mint bot tokens
  group join <id> [--password-env VAR] | group leave <id> | group info <id> | group list [--public]
  group send <id> <text> | group send <id> --file PATH [--file PATH …] [text]
  group token <id> <name>                            → {token, botToken}
  group tokens <id> | group revoke-token <id> <tokenId>

The profile's passphrase comes from the environment variable named by --passphrase-env
(default ${DEFAULT_PASSPHRASE_ENV}) in every command, backup and restore included; unset means an
empty passphrase (still encrypted). A backup file's own passphrase is named by --backup-passphrase-env.
An unlock is remembered for --unlock-ttl seconds (default ${DEFAULT_UNLOCK_TTL_S}; 0 = never, and forget it)
after the last command, so that commands in a row skip the passphrase's key derivation.
`;
