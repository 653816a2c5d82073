import { describe, expect, it } from 'vitest';
import { encodeQr, formatBits, reedSolomonDivisor, reedSolomonRemainder } from './qr';

/**
 * A reader for what encodeQr writes (level M, byte mode): finds the mask in the format bits,
 * unmasks, reads the codewords in placement order, checks every block's Reed-Solomon
 * remainder is zero and decodes the text. Written from the standard, separately from the encoder.
 */
function read(modules: boolean[][], version: number): string {
  const size = modules.length;
  const bit = (x: number, y: number) => (modules[y]![x] ? 1 : 0);
  // Format bits, first copy.
  let format = 0;
  const coords: [number, number][] = [];
  for (let i = 0; i <= 5; i += 1) coords.push([8, i]);
  coords.push([8, 7], [8, 8], [7, 8]);
  for (let i = 9; i < 15; i += 1) coords.push([14 - i, 8]);
  coords.forEach(([x, y], i) => {
    format |= bit(x, y) << i;
  });
  const raw = format ^ 0x5412;
  expect(raw >>> 13).toBe(0); // level M
  const mask = (raw >>> 10) & 7;
  // Function modules: finders with separators and format areas, timing, alignment, version.
  const fn = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const mark = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < size && y < size) fn[y]![x] = true;
  };
  for (let i = 0; i < size; i += 1) {
    mark(6, i);
    mark(i, 6);
  }
  for (let y = 0; y < 9; y += 1) for (let x = 0; x < 9; x += 1) mark(x, y);
  for (let y = 0; y < 9; y += 1) for (let x = size - 8; x < size; x += 1) mark(x, y);
  for (let y = size - 8; y < size; y += 1) for (let x = 0; x < 9; x += 1) mark(x, y);
  if (version >= 2) {
    const n = Math.floor(version / 7) + 2;
    const step = version === 32 ? 26 : Math.ceil((version * 4 + 4) / (n * 2 - 2)) * 2;
    const pos = [6];
    for (let p = size - 7; pos.length < n; p -= step) pos.splice(1, 0, p);
    for (const cy of pos) {
      for (const cx of pos) {
        if (fn[cy]![cx]) continue; // overlaps a finder
        for (let dy = -2; dy <= 2; dy += 1) for (let dx = -2; dx <= 2; dx += 1) mark(cx + dx, cy + dy);
      }
    }
  }
  if (version >= 7) {
    for (let y = 0; y < 6; y += 1) for (let x = size - 11; x < size - 8; x += 1) {
      mark(x, y);
      mark(y, x);
    }
  }
  const masks = [
    (x: number, y: number) => (x + y) % 2 === 0,
    (_x: number, y: number) => y % 2 === 0,
    (x: number) => x % 3 === 0,
    (x: number, y: number) => (x + y) % 3 === 0,
    (x: number, y: number) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
    (x: number, y: number) => ((x * y) % 2) + ((x * y) % 3) === 0,
    (x: number, y: number) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
    (x: number, y: number) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
  ];
  const bits: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert += 1) {
      for (let j = 0; j < 2; j += 1) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (!fn[y]![x]) bits.push(bit(x, y) ^ (masks[mask]!(x, y) ? 1 : 0));
      }
    }
  }
  const codewords: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  return codewords.map((c) => c.toString(16).padStart(2, '0')).join('');
}

describe('Reed-Solomon', () => {
  it('matches the textbook example (HELLO WORLD, 1-M)', () => {
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
    expect(reedSolomonRemainder(data, reedSolomonDivisor(10))).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  });
});

describe('format bits', () => {
  it('match the standard table for level M', () => {
    const table = [
      '101010000010010',
      '101000100100101',
      '101111001111100',
      '101101101001011',
      '100010111111001',
      '100000011001110',
      '100111110010111',
      '100101010100000',
    ];
    table.forEach((bits, mask) => {
      expect(formatBits(mask).toString(2).padStart(15, '0')).toBe(bits);
    });
  });
});

describe('encodeQr', () => {
  it('picks the smallest version for the text', () => {
    expect(encodeQr('hi').version).toBe(1);
    expect(encodeQr('x'.repeat(14)).version).toBe(1);
    expect(encodeQr('x'.repeat(15)).version).toBe(2);
    expect(encodeQr('https://kj.example/pages/love/video?id=382433663683395589').version).toBe(4);
  });

  it('draws finder patterns and timing lines where a reader looks for them', () => {
    const { modules, size } = encodeQr('https://kj.example/');
    const finder = ['1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111'];
    for (const [ox, oy] of [
      [0, 0],
      [size - 7, 0],
      [0, size - 7],
    ] as const) {
      const rows = finder.map((_, y) => Array.from({ length: 7 }, (_, x) => (modules[oy + y]![ox + x] ? '1' : '0')).join(''));
      expect(rows).toEqual(finder);
    }
    for (let i = 8; i < size - 8; i += 1) {
      expect(modules[6]![i]).toBe(i % 2 === 0);
      expect(modules[i]![6]).toBe(i % 2 === 0);
    }
    expect(modules[size - 8]![8]).toBe(true); // the dark module
  });

  it('round-trips: the data codewords read back from the symbol carry the text', () => {
    const text = 'https://kj.example/pages/love/video?id=382433663683395589';
    const qr = encodeQr(text);
    const hex = read(qr.modules, qr.version);
    // Version 4-M: 2 blocks of 32 data codewords, interleaved; then 2 × 18 ECC codewords.
    const bytes = hex.match(/../g)!.map((h) => parseInt(h, 16));
    const blocks = [0, 1].map((b) => Array.from({ length: 32 }, (_, i) => bytes[i * 2 + b]!));
    const ecc = [0, 1].map((b) => Array.from({ length: 18 }, (_, i) => bytes[64 + i * 2 + b]!));
    const divisor = reedSolomonDivisor(18);
    blocks.forEach((block, b) => {
      expect(reedSolomonRemainder(block, divisor)).toEqual(ecc[b]);
    });
    const data = [...blocks[0]!, ...blocks[1]!];
    expect(data[0]! >> 4).toBe(0b0100); // byte mode
    const length = ((data[0]! & 0x0f) << 4) | (data[1]! >> 4);
    const out: number[] = [];
    for (let i = 0; i < length; i += 1) out.push(((data[1 + i]! & 0x0f) << 4) | (data[2 + i]! >> 4));
    expect(new TextDecoder().decode(new Uint8Array(out))).toBe(text);
  });
});
