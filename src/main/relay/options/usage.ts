/** The headless relay's help text (`npm run relay -- --help`): every flag, variable and command. */
import { DEFAULT_CONFIG } from '../config.js';
import { MAX_HELD_PER_WALLET } from '../live/waiters.js';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_STAKE_CONFIRMATIONS, LAN_HOST } from './arg-values.js';

export const USAGE = `Usage:
  npm run relay -- [--host <addr>] [--port <n>] [--data <dir>] [options]
  npm run relay -- --lan [--port <n>] [--data <dir>] [options]
  npm run relay -- admin [--data <dir>] <command> [args]
  npm run relay -- --database postgres://user@host/db [--node-id <name>] [options]
  npm run relay -- admin --database postgres://user@host/db <command> [args]
  npm run relay -- --config relay.toml [options]
  npm run relay -- backup --data <dir> --out <file> [--blob-dir <dir>]
  npm run relay -- restore --in <file> --data <new-dir>

Serve options:
  --host <addr>              interface to bind (default ${DEFAULT_HOST}; ${LAN_HOST} with --lan)
  --port <n>                 TCP port, 0 picks a free one (default ${DEFAULT_PORT})
  --config <file>            read settings from a TOML file (JSON when it ends in .json): one
                             key per flag below, named without the dashes (rate-limit = 60);
                             an unknown key is refused. SIGHUP re-reads it and applies the
                             limits without a restart (see Reloading below)
  --data <dir>               data folder, created if missing; holds relay.db (default ${DEFAULT_DATA_DIR})
  --database <url>           store everything in PostgreSQL instead of <data>/relay.db (default:
                             $RELAY_DATABASE_URL); any number of relays may share one database
                             and serve as one (a cluster). Connect directly, not through a
                             transaction-pooling proxy. The data folder then holds only --lan's
                             TLS files and (without --blob-dir) blob bytes, and the disk guard
                             is off (watch the database's disk)
  --node-id <name>           this node's name in the cluster, shown in pg_stat_activity
                             (default: host name, process id and a random suffix)
  --lan                      serve HTTPS on all interfaces with a self-signed certificate
                             kept in the data folder (tls-key.pem, tls-cert.pem). Clients pin
                             its public key: renewals keep the key, only admin rotate-tls-key
                             changes it
  --tls-cert <file>          serve HTTPS with your own certificate (PEM) and
  --tls-key <file>           its key; both or neither. Read, never written: renew them
                             yourself, the running relay takes the new files up
  --rate-limit <n>           requests per minute per credential, 0 turns it off (default ${DEFAULT_CONFIG.rateLimit})
  --retention-days <n>       unacked envelopes are dropped after n days (default ${DEFAULT_CONFIG.retentionDays})
  --stake-currency <ETH|CRO> currency of anti-spam stakes (default ${DEFAULT_CONFIG.stakeCurrency})
  --stake-rpc <url>          JSON-RPC endpoint of the stake chain; repeatable, tried in order.
                             With --stake-chain-id and --stake-escrow this turns stakes on
  --stake-chain-id <n>       chain id the escrow lives on (the relay checks the RPC agrees)
  --stake-escrow <0x...>     the RelayStakeEscrow address (its code is checked at start-up)
  --stake-confirmations <n>  blocks deep a deposit must be (default ${DEFAULT_STAKE_CONFIRMATIONS})
  --stake-public-rpc <url>   RPC URL offered to clients in /api/v1/stake-config; repeatable
                             (default: the --stake-rpc URLs that are on loopback)
  --chain-id <n>             Chain ID in sign-in challenges (default ${DEFAULT_CONFIG.chainId})
  --base-url <url>           public URL clients use (default: derived from host and port)
  --allow-host <name>        extra Host header value to accept; repeatable
  --trust-proxy              trust X-Forwarded-For (only behind your own reverse proxy)
  --max-held-pulls <n>       long-poll pulls held open at once; past it 503 + Retry-After (default ${DEFAULT_CONFIG.maxHeldPulls}).
                             One wallet holds at most ${MAX_HELD_PER_WALLET} (and at most a twentieth of this):
                             its next answers its oldest, empty
  --max-queued <n>           undelivered envelopes per recipient device, per wallet when sealed
                             to no device; sends past it are 429 recipient-full (default ${DEFAULT_CONFIG.maxQueued})
  --max-queued-mib <n>       MiB of undelivered ciphertext, same scope (default ${DEFAULT_CONFIG.maxQueuedMib}).
                             Contact requests (strangers' envelopes) fill at most half of either;
                             past it 429 requests-full, the other half is for contacts and groups
  --max-requests-per-pair <n>
                             undelivered contact-request envelopes and pending group invitations
                             from one sender to one wallet; past it 429 too-many-requests-pending
                             (default ${DEFAULT_CONFIG.maxRequestsPerPair})
  --min-free-disk-mib <n>    sends, group creation and edits, handle claims and minted keys and
                             bot tokens answer 507 storage-full while the data folder's disk has
                             less free; 0 turns the guard off (default ${DEFAULT_CONFIG.minFreeDiskMib})
  --max-groups-per-wallet <n>
                             groups one wallet may create; past it 429 too-many-groups (default ${DEFAULT_CONFIG.maxGroupsPerWallet})
  --max-keys-per-wallet <n>  active API keys per wallet; a sign-in past it is 409 too-many-keys,
                             naming where old keys are revoked (default ${DEFAULT_CONFIG.maxKeysPerWallet})
  --max-blob-mib <n>         largest attachment blob one upload may store, 413 past it (default ${DEFAULT_CONFIG.maxBlobMib})
  --max-blob-storage-mib <n> MiB of unexpired blobs per uploading wallet; 429 blob-quota-full
                             past it (default ${DEFAULT_CONFIG.maxBlobStorageMib})
  --registration <mode>      who may sign in for the first time: open (anyone; the default),
                             invite (with a code from 'admin invite create'; recommended for a
                             team) or closed (nobody new); wallets already known always can
  --blob-dir <dir>           folder for blob bytes (default <data>/blobs); the nodes of a cluster
                             must all name one shared folder (their metadata is in the database)
  --log-level <level>        error, warn, info or debug (default info); info logs a line per request
  --log-format <json|pretty> json: every stdout line is JSON, the ready line too (it names url
                             and, with --lan, pin); pretty: for people (pino-pretty). Without
                             it: the plain ready line and --lan's lines, then one JSON line per event
  --metrics-port <n>         serve Prometheus metrics at GET /metrics on this port, 0 picks one
                             (default: no metrics listener)
  --metrics-host <addr>      interface of the metrics listener (default ${DEFAULT_HOST})
  -h, --help                 show this help

Environment and config file:
  Every serve flag can also come from a variable named RELAY_ and the flag in capitals with _
  for - (--rate-limit: RELAY_RATE_LIMIT, --lan: RELAY_LAN=1, --allow-host: RELAY_ALLOW_HOST=a,b),
  except --database, whose variable is RELAY_DATABASE_URL; and from --config's file (or
  RELAY_CONFIG). Flags win over variables, variables over the file, the file over defaults.
  Relative paths (--data, --blob-dir, --config) are relative to the folder you ran the command
  in, also through npm run; relative paths in the file are relative to the file's folder.

Reloading (SIGHUP):
  re-reads the file and the environment and applies, to the running relay, --rate-limit (not
  turning it on or off), --retention-days, --max-held-pulls, --max-queued, --max-queued-mib,
  --max-requests-per-pair, --min-free-disk-mib, --max-groups-per-wallet, --max-keys-per-wallet,
  --max-blob-mib, --max-blob-storage-mib, --registration and --log-level; connections stay
  open. Other changes are logged as needing a restart; a file that does not parse is refused
  and nothing changes.

Admin commands (the relay running on --data carries them out through its admin socket,
<data>/admin.sock, so they take effect at once; when none runs they change <data>/relay.db;
with --database they act on the cluster's database and every node hears of a suspension at
once. --data, --database and --config, or their variables, say where, as for serving; each
command prints its answer on stdout and logs what it did as one JSON line on stderr):
  invite create [--uses N] [--expires 7d]        an invite code for N new wallets (default 1),
                                                  valid 7d (30m, 12h, 7d, never); prints
                                                  { code, link, uses, expiresAt }
  invite list                                     { items: [{ code, usesLeft, expiresAt, revoked }] }
  invite revoke <code>                            { revoked: true }
  users                                           { items: [{ address, handle, devices,
                                                  lastSignIn, queued, state }] }
  suspend <address|@handle> [--reason TEXT]       end its keys and held pulls at once, refuse its
                                                  sign-ins; its queue is kept
  unsuspend <address|@handle>                     let it sign in again
  delete-account <address|@handle>                remove its keys, devices, handle, queue and
                                                  blobs; the groups it created pass to their
                                                  longest-serving admin, or are deleted
  verify <address|handle>                         mark an account verified
  unverify <address|handle>                       remove the mark
  verify-group <group-id>                         mark a group verified
  unverify-group <group-id>                       remove the mark
  grant <address|handle> <entitlement>            the one entitlement is developer-api
  revoke-entitlement <address|handle> <entitlement>
  stats                                           counts as JSON
  rotate-tls-key                                  a new TLS key and certificate in <data>;
                                                  prints { oldPin, newPin }. Every client
                                                  must be given the new pin
  deploy-escrow --rpc <url> --private-key-env <VAR>
                                                  deploy the stake escrow with the key in
                                                  environment variable VAR; prints its address

Backup and restore (SQLite; a relay on PostgreSQL is backed up with pg_dump, see docs/operations.md):
  backup --data <dir> --out <file>                one file: a consistent copy of relay.db taken
                                                  while the relay runs, the blobs and the TLS
                                                  key and certificate; prints { savedTo, bytes }
  restore --in <file> --data <dir>                into a new or empty folder only; checks the
                                                  whole file first; prints { restoredTo }

Exit codes: 0 success; 1 runtime or admin failure; 2 bad arguments.
`;
