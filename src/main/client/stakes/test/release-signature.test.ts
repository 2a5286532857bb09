/**
 * The release-signature example of docs/vectors/release-signature.json (walked through in
 * docs/test-vectors.md): the stake id the relay computes, the typed data the client builds, the
 * signature the vault makes of it, and the relay's check of that signature all agree with it.
 */
import { hexToBytes } from '@noble/hashes/utils.js';
import { concat, encodeAbiParameters, hashDomain, hashStruct, hashTypedData, keccak256, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { signTypedData } from '../../../vault/signing/chain-signing.js';
import { addressFromPrivateKey } from '../../../vault/signing/wallet.js';
import { createStakeChain, stakeIdOf } from '../../../relay/chain/stake-chain.js';
import { releaseSignatureVector } from '../../../test-support/doc-vectors.js';
import { releaseTypedData } from '../stakes.js';

const v = releaseSignatureVector();
const EIP712_DOMAIN = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

describe('the documented release signature', () => {
  it('names the stake the escrow would create for its sender, recipient and ref', () => {
    expect(addressFromPrivateKey(hexToBytes(v.recipientPrivateKey.slice(2)))).toBe(v.recipient);
    expect(stakeIdOf(v.chainId, v.escrow, v.sender, v.recipient, v.ref)).toBe(v.stakeId);
    expect(
      encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'bytes32' }],
        [BigInt(v.chainId), v.escrow, v.sender, v.recipient, v.ref],
      ),
    ).toBe(v.stakeIdPreimage);
    expect(keccak256(v.stakeIdPreimage)).toBe(v.stakeId);
  });

  it('is the typed data the client signs, hashed step by step as the page says', () => {
    const typed = releaseTypedData({ chainId: v.chainId, escrow: v.escrow, id: v.stakeId });
    expect(typed).toEqual(v.typedData);
    expect(keccak256(toHex('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'))).toBe(
      v.domainTypeHash,
    );
    expect(keccak256(toHex('Release(bytes32 id)'))).toBe(v.releaseTypeHash);
    expect(keccak256(toHex(v.typedData.domain.name))).toBe(v.nameHash);
    expect(keccak256(toHex(v.typedData.domain.version))).toBe(v.versionHash);
    expect(
      concat([
        v.domainTypeHash,
        v.nameHash,
        v.versionHash,
        encodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], [BigInt(v.chainId), v.escrow]),
      ]),
    ).toBe(v.domainSeparatorPreimage);
    expect(keccak256(v.domainSeparatorPreimage)).toBe(v.domainSeparator);
    const domain = { ...v.typedData.domain, chainId: BigInt(v.typedData.domain.chainId) };
    expect(hashDomain({ domain, types: { EIP712Domain: EIP712_DOMAIN } })).toBe(v.domainSeparator);
    expect(concat([v.releaseTypeHash, v.stakeId])).toBe(v.structHashPreimage);
    expect(keccak256(v.structHashPreimage)).toBe(v.structHash);
    expect(hashStruct({ data: v.typedData.message, primaryType: 'Release', types: v.typedData.types })).toBe(
      v.structHash,
    );
    expect(concat(['0x1901', v.domainSeparator, v.structHash])).toBe(v.digestPreimage);
    expect(keccak256(v.digestPreimage)).toBe(v.digest);
    expect(hashTypedData(v.typedData)).toBe(v.digest);
  });

  it("is the vault's signature, byte for byte (RFC 6979), with r, s and v as listed", () => {
    const signature = signTypedData(hexToBytes(v.recipientPrivateKey.slice(2)), v.typedData);
    expect(signature).toBe(v.signature);
    expect(v.signature).toBe(`${v.r}${v.s.slice(2)}${v.v.toString(16)}`);
  });

  it("passes the relay's check for that recipient, and nothing else does", async () => {
    const chain = createStakeChain({ rpcUrls: [], chainId: v.chainId, escrow: v.escrow, confirmations: 1 });
    expect(await chain.isReleaseSignature(v.stakeId, v.recipient, v.signature)).toBe(true);
    expect(await chain.isReleaseSignature(v.stakeId, v.sender, v.signature)).toBe(false);
    const otherId = `0x${'00'.repeat(31)}01` as Hex;
    expect(await chain.isReleaseSignature(otherId, v.recipient, v.signature)).toBe(false);
    const otherEscrow = createStakeChain({ rpcUrls: [], chainId: v.chainId + 1, escrow: v.escrow, confirmations: 1 });
    expect(await otherEscrow.isReleaseSignature(v.stakeId, v.recipient, v.signature)).toBe(false);
  });
});
