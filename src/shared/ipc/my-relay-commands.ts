/**
 * The commands of Settings → My relay: the owner of the app's built-in relay runs its team from
 * the app, through that relay's admin socket (see ../ipc.ts for the whole contract).
 */
import { Type } from 'typebox';
import { Address, NoArgs, cmd } from './args.js';

export interface MyRelayInvite {
  code: string;
  usesLeft: number;
  /** ISO time, or null for a code that never expires */
  expiresAt: string | null;
  revoked: boolean;
}

export interface MyRelayNewInvite {
  code: string;
  /** `https://host:port/join#invite=…&pin=…`, the address, pin and code a teammate's app reads */
  link: string | null;
  uses: number;
  expiresAt: string | null;
}

export interface MyRelayUser {
  address: string;
  handle: string | null;
  devices: number;
  lastSignIn: string | null;
  queued: number;
  state: 'active' | 'suspended';
}

/** The relay's counts as `relay admin stats` prints them (more may come with later relays). */
export type MyRelayStats = Record<string, number | string | null>;

const Who = Type.Object({ address: Address }, { additionalProperties: false });

export const myRelayCommands = {
  'myRelay.invites': cmd<MyRelayInvite[]>()(NoArgs),
  'myRelay.createInvite': cmd<MyRelayNewInvite>()(
    Type.Object(
      {
        uses: Type.Integer({ minimum: 1, maximum: 100 }),
        /** days until it expires; null for never */
        expiresInDays: Type.Union([Type.Integer({ minimum: 1, maximum: 365 }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  ),
  'myRelay.revokeInvite': cmd<void>()(
    Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  ),
  'myRelay.users': cmd<MyRelayUser[]>()(NoArgs),
  'myRelay.suspend': cmd<MyRelayUser[]>()(Who),
  'myRelay.unsuspend': cmd<MyRelayUser[]>()(Who),
  /** removes the account from the relay: its keys, devices, handle, queue and files */
  'myRelay.deleteAccount': cmd<MyRelayUser[]>()(Who),
  'myRelay.stats': cmd<MyRelayStats>()(NoArgs),
} as const;
