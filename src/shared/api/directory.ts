import { Type, type Static } from 'typebox';
import { Address, DateTime, DeviceKey, Signature } from './common.js';

export const Me = Type.Object(
  {
    address: Address,
    handle: Type.Union([Type.String(), Type.Null()]),
    verified: Type.Boolean({ description: 'verified-business status, granted by the operator' }),
    deviceKeys: Type.Integer({ description: 'count of registered (non-revoked) devices' }),
    entitlements: Type.Array(Type.String()),
  },
  { $id: 'Me', title: 'Me' },
);
export type Me = Static<typeof Me>;

export const HandleRecord = Type.Object(
  { handle: Type.String(), address: Address, verified: Type.Boolean(), claimedAt: DateTime },
  { $id: 'HandleRecord', title: 'HandleRecord' },
);
export type HandleRecord = Static<typeof HandleRecord>;

export const DirectoryEntry = Type.Object(
  { handle: Type.String(), address: Address, verified: Type.Boolean() },
  { $id: 'DirectoryEntry', title: 'DirectoryEntry' },
);
export type DirectoryEntry = Static<typeof DirectoryEntry>;

export const DirectoryQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 64, description: 'handle or address fragment, case-insensitive' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
});
export const DirectoryResult = Type.Object({ results: Type.Array(DirectoryEntry) }, { $id: 'DirectoryResult' });
export type DirectoryResult = Static<typeof DirectoryResult>;

export const DeviceRecord = Type.Object(
  { publicKey: DeviceKey, certificate: Signature, createdAt: DateTime },
  { $id: 'Device', title: 'Device' },
);
export type DeviceRecord = Static<typeof DeviceRecord>;

export const DeviceKeys = Type.Object(
  {
    address: Address,
    deviceKeys: Type.Array(DeviceKey, { description: 'current non-revoked device public keys' }),
    devices: Type.Array(DeviceRecord, { description: 'the same devices with their wallet-signed certificates' }),
  },
  { $id: 'DeviceKeys', title: 'DeviceKeys' },
);
export type DeviceKeys = Static<typeof DeviceKeys>;
