import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of milliseconds, a 12-bit counter that keeps ids of the same
 * millisecond in order (RFC 9562 method 1; on overflow the clock part moves on), then random
 * bits. The random part comes from randomUUID's buffered pool: asking the CSPRNG for 16 bytes
 * per id was a visible share of a send's CPU.
 */
let lastMs = 0;
let counter = 0;
export function uuidv7(now: number): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const ts = lastMs.toString(16).padStart(12, '0');
  const r = randomUUID();
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${counter.toString(16).padStart(3, '0')}-${r.slice(19)}`;
}
