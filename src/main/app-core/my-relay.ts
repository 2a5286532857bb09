/**
 * Settings → My relay: the app's owner runs the team on the built-in relay. Main speaks to that
 * relay's admin socket in its data folder, as `relay admin --data` does, so that an invite, a
 * suspension or a deletion takes effect at once in the running relay (its held pulls and key
 * caches included); the renderer never reaches the socket.
 */
import { AppError, localRelayOffMessage } from '../../shared/plain-errors.js';
import type { MyRelayInvite, MyRelayNewInvite, MyRelayStats, MyRelayUser } from '../../shared/ipc/my-relay-commands.js';
import type { Handler } from '../commands/handler-types.js';
import { sendToRunningRelay } from '../relay/moderation/admin-socket.js';
import { AdminError, type StoreCommand } from '../relay/moderation/admin-commands.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type MyRelayCommand =
  | 'myRelay.invites'
  | 'myRelay.createInvite'
  | 'myRelay.revokeInvite'
  | 'myRelay.users'
  | 'myRelay.suspend'
  | 'myRelay.unsuspend'
  | 'myRelay.deleteAccount'
  | 'myRelay.stats';

/** `dataDir`: the built-in relay's data folder while it runs, else null. */
export function myRelayHandlers(dataDir: () => string | null): { [K in MyRelayCommand]: Handler<K> } {
  const send = async <T>(command: StoreCommand): Promise<T> => {
    const dir = dataDir();
    const output = dir ? await sendToRunningRelay(dir, command).catch(refusal) : null;
    if (output === null) throw new AppError('local-relay-off', localRelayOffMessage);
    return JSON.parse(output) as T;
  };
  const users = async () => (await send<{ items: MyRelayUser[] }>({ kind: 'users' })).items;
  return {
    'myRelay.invites': async () => (await send<{ items: MyRelayInvite[] }>({ kind: 'invite-list' })).items,
    'myRelay.createInvite': ({ uses, expiresInDays }) =>
      send<MyRelayNewInvite>({
        kind: 'invite-create',
        uses,
        expiresInMs: expiresInDays === null ? null : expiresInDays * DAY_MS,
      }),
    'myRelay.revokeInvite': async ({ code }) => {
      await send({ kind: 'invite-revoke', code });
    },
    'myRelay.users': users,
    'myRelay.suspend': async ({ address }) => {
      await send({ kind: 'suspend', who: address, reason: null });
      return users();
    },
    'myRelay.unsuspend': async ({ address }) => {
      await send({ kind: 'unsuspend', who: address });
      return users();
    },
    'myRelay.deleteAccount': async ({ address }) => {
      await send({ kind: 'delete-account', who: address });
      return users();
    },
    'myRelay.stats': () => send<MyRelayStats>({ kind: 'stats' }),
  };
}

/** The relay's own refusal (an unknown account, say) is passed on as it worded it. */
function refusal(e: unknown): never {
  if (e instanceof AdminError) throw new AppError('relay-admin-refused', e.message);
  throw e;
}
