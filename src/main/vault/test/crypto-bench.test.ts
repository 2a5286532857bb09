import { describe, expect, it } from 'vitest';
import { benchCrypto } from '../../bench/crypto-bench.js';

// Speed itself is judged by the bench runner; here only that the bench runs and reports every figure.
describe('benchCrypto', () => {
  it('reports seal/open rates for native, fast and noble side by side', async () => {
    const result = await benchCrypto({ durationMs: 20, rounds: 1 });
    for (const key of ['seal_native_ops_s', 'seal_fast_ops_s', 'seal_noble_ops_s', 'open_native_ops_s', 'open_fast_ops_s', 'open_noble_ops_s', 'seal_fast_vs_native']) {
      expect(result[key], key).toBeGreaterThan(0);
      expect(Number.isFinite(result[key]), key).toBe(true);
    }
    expect(result.frame_bytes).toBe(200);
    expect([0, 1]).toContain(result.seal_fast_meets_target);
  });
});
