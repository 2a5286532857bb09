/**
 * The safety number's QR code (ISO/IEC 18004): numeric mode, error correction level M, the
 * smallest version that holds it (60 digits: version 2, 25×25 modules), drawn by the `qr`
 * package (zero-dependency, from the author of our @noble libraries).
 */
import encodeQR from 'qr';

/** Rows of '1' (dark) and '0' without the quiet zone (the renderer adds 4 modules), the shape the app's IPC carries. */
export function qrRows(digits: string, mask?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7): string[] {
  if (!/^\d+$/.test(digits)) throw new Error('a safety number QR code holds digits only');
  // the package insists on a quiet zone; one module of it is cut off again here
  const grid = encodeQR(digits, 'raw', {
    ecc: 'medium',
    encoding: 'numeric',
    border: 1,
    ...(mask === undefined ? {} : { mask }),
  });
  return grid.slice(1, -1).map((row) =>
    row
      .slice(1, -1)
      .map((dark) => (dark ? '1' : '0'))
      .join(''),
  );
}
