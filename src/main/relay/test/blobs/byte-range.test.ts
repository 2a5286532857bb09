import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../http/byte-range.js';

describe('Range: bytes=… on a 1000-byte blob', () => {
  it('reads the three single-range forms, clamping an end past the blob', () => {
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=990-', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-10', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(parseByteRange('bytes=500-5000', 1000)).toEqual({ start: 500, end: 999 });
  });

  it('is unsatisfiable when it starts at or past the end, or asks for an empty suffix', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=1000-1001', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve (no header, several ranges, other units, malformed): the whole blob', () => {
    for (const h of [undefined, 'bytes=0-1,5-6', 'items=0-1', 'bytes=5-2', 'bytes=-', 'bytes=a-b'])
      expect(parseByteRange(h, 1000)).toBeNull();
  });
});
