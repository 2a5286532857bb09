/** The commands of the app, the wallet and its relay, this device, keys, preferences, backups and history transfer (see ../ipc.ts for the whole contract). */
import { Type } from 'typebox';
import type {
  ApiKeyInfo,
  AppStatus,
  Preferences,
  DeviceInfo,
  InboxPolicy,
  RelayStatus,
  SyncStatus,
} from '../domain.js';
import { BACKUP_PASSPHRASE_MIN, BACKUP_PIECE_BYTES, type BackupSummary } from '../backup/backup.js';
import type { HistorySent } from '../backup/history.js';
import { ConvId, Uuid, Passphrase, NoArgs, BackupName, cmd } from './args.js';

export const accountCommands = {
  'app.status': cmd<AppStatus>()(NoArgs),

  // onboarding: the vault creates or imports the wallet; the mnemonic crosses once, to be shown
  'wallet.create': cmd<{ address: string; mnemonic: string }>()(
    Type.Object({ passphrase: Passphrase }, { additionalProperties: false }),
  ),
  'wallet.importMnemonic': cmd<{ address: string }>()(
    Type.Object(
      { mnemonic: Type.String({ maxLength: 1024 }), passphrase: Passphrase },
      { additionalProperties: false },
    ),
  ),
  'wallet.importPrivateKey': cmd<{ address: string }>()(
    Type.Object(
      { privateKey: Type.String({ maxLength: 132 }), passphrase: Passphrase },
      { additionalProperties: false },
    ),
  ),
  'wallet.unlock': cmd<AppStatus>()(Type.Object({ passphrase: Passphrase }, { additionalProperties: false })),
  /**
   * The recovery phrase again (null for a wallet imported from a private key): without a
   * passphrase only until the person confirms it (AppStatus.recoveryPhrase `unconfirmed`), after
   * that only with the passphrase (none is asked where the OS keychain protects the wallet)
   */
  'wallet.recoveryPhrase': cmd<{ phrase: string | null }>()(
    Type.Object({ passphrase: Type.Optional(Passphrase) }, { additionalProperties: false }),
  ),
  /** the person typed back the words asked for: setup goes on, and the phrase now needs the passphrase */
  'wallet.confirmPhrase': cmd<AppStatus>()(NoArgs),
  'relay.connect': cmd<AppStatus>()(
    Type.Object(
      {
        mode: Type.Union([Type.Literal('local'), Type.Literal('lan'), Type.Literal('url')]),
        url: Type.Optional(Type.String({ maxLength: 2048 })),
        fingerprint: Type.Optional(Type.String({ maxLength: 128 })),
        /** the relay owner's invite code, sent with a first sign-in on a relay in invite mode */
        invite: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      },
      { additionalProperties: false },
    ),
  ),
  'profile.claimHandle': cmd<AppStatus>()(
    Type.Object({ handle: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),

  // settings
  'devices.list': cmd<DeviceInfo[]>()(NoArgs),
  'devices.revoke': cmd<void>()(
    Type.Object({ publicKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  /** seals this device's history to another certified device of the wallet and sends it over the relay */
  'history.send': cmd<HistorySent>()(
    Type.Object({ deviceKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  /** "Not now" to the offer to send this device's history to `deviceKey`: remembered, so the offer stays gone after a restart */
  'history.decline': cmd<void>()(
    Type.Object({ deviceKey: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  ),
  'apiKeys.list': cmd<ApiKeyInfo[]>()(NoArgs),
  'apiKeys.mint': cmd<{ apiKey: string; key: ApiKeyInfo }>()(
    Type.Object({ label: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ),
  'apiKeys.revoke': cmd<void>()(Type.Object({ id: Uuid }, { additionalProperties: false })),
  'policy.get': cmd<InboxPolicy>()(NoArgs),
  'policy.set': cmd<InboxPolicy>()(
    Type.Object(
      {
        unknownSenders: Type.Union([Type.Literal('request'), Type.Literal('stake-gate'), Type.Literal('block')]),
        stake: Type.Optional(Type.String({ maxLength: 40 })),
      },
      { additionalProperties: false },
    ),
  ),
  'relay.status': cmd<RelayStatus>()(NoArgs),
  'relay.setLocal': cmd<RelayStatus>()(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
  'relay.shareOnLan': cmd<RelayStatus>()(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
  'sync.now': cmd<SyncStatus>()(NoArgs),
  /** the window is on screen or not: while it is, the relay is tried again within seconds after it was away */
  'app.visibility': cmd<void>()(Type.Object({ visible: Type.Boolean() }, { additionalProperties: false })),

  'preferences.get': cmd<Preferences>()(NoArgs),
  'preferences.set': cmd<Preferences>()(
    Type.Object(
      {
        readReceipts: Type.Optional(Type.Boolean()),
        notifications: Type.Optional(Type.Boolean()),
        notificationPreview: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('sender')])),
      },
      { additionalProperties: false },
    ),
  ),
  /**
   * Shows a desktop notification through the shell (Electron's Notification); `shown: false`
   * where the shell has none (web mode), and the page uses the browser's. A click is the
   * `notification.clicked` event.
   */
  'notifications.show': cmd<{ shown: boolean }>()(
    Type.Object(
      {
        title: Type.String({ maxLength: 200 }),
        body: Type.String({ maxLength: 500 }),
        conversationId: Type.Optional(ConvId),
      },
      { additionalProperties: false },
    ),
  ),
  // backups (src/main/client/backup/backups.ts): null when the person cancelled the shell's save dialog;
  // in web mode the file is downloaded, and in both a restore's file is uploaded, in base64 pieces
  'backup.export': cmd<BackupSummary | null>()(
    Type.Object(
      { passphrase: Type.String({ minLength: BACKUP_PASSPHRASE_MIN, maxLength: 1024 }) },
      { additionalProperties: false },
    ),
  ),
  'backup.download': cmd<{ data: string; next: number | null }>()(
    Type.Object({ name: BackupName, offset: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  ),
  'backup.upload': cmd<{ name: string; size: number }>()(
    Type.Object(
      {
        name: Type.Optional(BackupName),
        offset: Type.Integer({ minimum: 0 }),
        data: Type.String({ maxLength: Math.ceil(BACKUP_PIECE_BYTES / 3) * 4 }),
      },
      { additionalProperties: false },
    ),
  ),
  'backup.restore': cmd<BackupSummary>()(
    Type.Object(
      { name: BackupName, passphrase: Type.String({ minLength: 1, maxLength: 1024 }) },
      { additionalProperties: false },
    ),
  ),
  'links.openExternal': cmd<void>()(
    Type.Object({ url: Type.String({ pattern: '^https?://', maxLength: 2048 }) }, { additionalProperties: false }),
  ),
} as const;
