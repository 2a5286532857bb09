/**
 * A QR code (ISO/IEC 18004) for a string of digits: numeric mode, error correction level M,
 * the smallest of versions 1 to 3 that holds it (34, 63 or 101 digits; one Reed-Solomon
 * block each, so no interleaving), and the mask with the lowest penalty. That is all a
 * safety number needs (60 digits: version 2, 25×25 modules).
 *
 * Written here rather than taken from npm because no QR library is among the project's
 * dependencies and helpers may not add one; `qr` (paulmillr, zero-dependency, by the author
 * of @noble) would replace this file if the lead adds it. The module matrix was checked
 * against an independent encoder (python-qrcode) and a decoder (zbarimg); the test keeps
 * python-qrcode's matrix for one input.
 */

const VERSIONS = [
  // version, numeric capacity at level M, data codewords, EC codewords (level M, one block)
  { version: 1, digits: 34, data: 16, ec: 10 },
  { version: 2, digits: 63, data: 28, ec: 16 },
  { version: 3, digits: 101, data: 44, ec: 26 },
] as const;

type Grid = boolean[][];

/** The QR code's modules, row by row, true = dark, without the quiet zone (4 modules, the renderer's to add). */
export function qrForDigits(digits: string, forceMask?: number): Grid {
  if (!/^\d+$/.test(digits)) throw new Error('qrForDigits encodes digits only');
  const spec = VERSIONS.find((v) => v.digits >= digits.length);
  if (!spec) throw new Error('too many digits for a version 1–3 QR code');
  const data = dataCodewords(digits, 10, spec.data);
  const codewords = [...data, ...rsRemainder(data, rsDivisor(spec.ec))];
  const size = 17 + 4 * spec.version;
  const base = functionPatterns(size, spec.version);
  placeCodewords(base, codewords);
  const masks = forceMask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [forceMask];
  let best: Grid | null = null;
  let bestScore = Infinity;
  for (const mask of masks) {
    const g = applyMask(base, mask);
    drawFormat(g.modules, size, mask);
    const score = penalty(g.modules);
    if (score < bestScore) {
      bestScore = score;
      best = g.modules;
    }
  }
  return best!;
}

interface Matrix {
  modules: Grid;
  isFunction: boolean[][];
}

function dataCodewords(digits: string, countBits: number, capacity: number): number[] {
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0001, 4); // numeric mode
  put(digits.length, countBits);
  for (let i = 0; i < digits.length; i += 3) {
    const group = digits.slice(i, i + 3);
    put(Number(group), group.length * 3 + 1);
  }
  const capacityBits = capacity * 8;
  put(0, Math.min(4, capacityBits - bits.length));
  while (bits.length % 8 !== 0) bits.push(0);
  const bytes: number[] = [];
  for (let i = 0; i < bits.length; i += 8) bytes.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; bytes.length < capacity; pad ^= 0xec ^ 0x11) bytes.push(pad);
  return bytes;
}

function gfMul(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMul(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMul(root, 0x02);
  }
  return result;
}

function rsRemainder(data: number[], divisor: number[]): number[] {
  const result = divisor.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift()!;
    result.push(0);
    divisor.forEach((coef, i) => (result[i] ^= gfMul(coef, factor)));
  }
  return result;
}

function functionPatterns(size: number, version: number): Matrix {
  const modules: Grid = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const isFunction = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const set = (row: number, col: number, dark: boolean) => {
    modules[row][col] = dark;
    isFunction[row][col] = true;
  };
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  for (const [r0, c0] of [[3, 3], [3, size - 4], [size - 4, 3]]) {
    for (let dr = -4; dr <= 4; dr++) {
      for (let dc = -4; dc <= 4; dc++) {
        const r = r0 + dr;
        const c = c0 + dc;
        if (r < 0 || r >= size || c < 0 || c >= size) continue;
        const d = Math.max(Math.abs(dr), Math.abs(dc));
        set(r, c, d !== 2 && d !== 4);
      }
    }
  }
  if (version >= 2) {
    const p = size - 7;
    for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(p + dr, p + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
  }
  // reserve the format areas (drawn per mask) and the dark module
  drawFormat(modules, size, 0);
  for (let i = 0; i < 9; i++) {
    isFunction[8][i] = isFunction[i][8] = true;
  }
  for (let i = 0; i < 8; i++) {
    isFunction[8][size - 1 - i] = true;
    isFunction[size - 1 - i][8] = true;
  }
  return { modules, isFunction };
}

/** Format information (level M, the mask) in both copies, and the dark module. */
function drawFormat(modules: Grid, size: number, mask: number): void {
  const data = (0b00 << 3) | mask; // level M is 00
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i: number) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) modules[i][8] = bit(i);
  modules[7][8] = bit(6);
  modules[8][8] = bit(7);
  modules[8][7] = bit(8);
  for (let i = 9; i < 15; i++) modules[8][14 - i] = bit(i);
  for (let i = 0; i < 8; i++) modules[8][size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i++) modules[size - 15 + i][8] = bit(i);
  modules[size - 8][8] = true;
}

/** The zigzag: two-module columns from the right, up then down, skipping the timing column. */
function placeCodewords(m: Matrix, codewords: number[]): void {
  const size = m.modules.length;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const col = right - j;
        const row = upward ? size - 1 - vert : vert;
        if (m.isFunction[row][col] || i >= codewords.length * 8) continue;
        m.modules[row][col] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        i++;
      }
    }
  }
}

const MASKS: Array<(r: number, c: number) => boolean> = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

function applyMask(m: Matrix, mask: number): Matrix {
  const modules = m.modules.map((row, r) => row.map((dark, c) => (m.isFunction[r][c] ? dark : dark !== MASKS[mask](r, c))));
  return { modules, isFunction: m.isFunction };
}

const FINDER_LIKE = [[true, false, true, true, true, false, true, false, false, false, false], [false, false, false, false, true, false, true, true, true, false, true]];

/** The standard's four penalty rules: runs, 2×2 blocks, finder look-alikes, dark/light balance. */
function penalty(g: Grid): number {
  const size = g.length;
  const lines = [...g, ...g[0].map((_, c) => g.map((row) => row[c]))];
  let score = 0;
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) run++;
      else {
        if (run >= 5) score += run - 2;
        run = 1;
      }
    }
    for (let i = 0; i + 11 <= size; i++) {
      if (FINDER_LIKE.some((p) => p.every((v, k) => line[i + k] === v))) score += 40;
    }
  }
  for (let r = 0; r + 1 < size; r++) {
    for (let c = 0; c + 1 < size; c++) {
      const v = g[r][c];
      if (g[r][c + 1] === v && g[r + 1][c] === v && g[r + 1][c + 1] === v) score += 3;
    }
  }
  const dark = g.reduce((n, row) => n + row.filter(Boolean).length, 0);
  score += Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5) * 10;
  return score;
}

/** Rows of '1' (dark) and '0', the shape the app's IPC carries. */
export function qrRows(g: Grid): string[] {
  return g.map((row) => row.map((d) => (d ? '1' : '0')).join(''));
}
