/** One byte range of a `Range: bytes=…` header (RFC 9110 §14), inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a request asks of a resource of `size` bytes: null to send it whole (no header, a
 * form we do not serve such as several ranges, or a malformed one, which RFC 9110 says to
 * ignore), 'unsatisfiable' for a range wholly past the end (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return 'unsatisfiable';
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (end < start) return null;
  return { start, end: Math.min(end, size - 1) };
}
