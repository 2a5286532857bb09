import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ESCROW_ABI, ESCROW_BYTECODE, ESCROW_RUNTIME_HASH } from '../../contracts/escrow-artifact.js';
import { ARTIFACT_PATH, artifactSource, compileEscrow } from '../compile-escrow.js';

describe('the committed escrow artifact', () => {
  it('is exactly what the solc npm package compiles from contracts/RelayStakeEscrow.sol (run `npm run contracts` after changing the contract)', () => {
    const compiled = compileEscrow();
    expect(artifactSource(compiled)).toBe(readFileSync(ARTIFACT_PATH, 'utf8'));
    expect(compiled.bytecode).toBe(ESCROW_BYTECODE);
    expect(compiled.runtimeHash).toBe(ESCROW_RUNTIME_HASH);
    expect(
      ESCROW_ABI.filter((e) => e.type === 'function')
        .map((e) => e.name)
        .sort(),
    ).toEqual(
      [
        'ACTIVE',
        'FORFEITED',
        'MAX_LOCK',
        'NONE',
        'REFUNDED',
        'RELEASED',
        'deposit',
        'eip712Domain',
        'forfeit',
        'forfeitWithSig',
        'refund',
        'release',
        'releaseWithSig',
        'stakeId',
        'stakes',
      ].sort(),
    );
  }, 60_000);
});
