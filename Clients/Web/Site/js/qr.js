// A QR code (ISO/IEC 18004) for a join link, made here so no library and no server round trip is
// needed: byte mode, error correction level M, versions 1–10 (up to 213 bytes: any link to a game).
// `qrMatrix(text)` is the grid of modules (true = dark); `qrSvg(text)` draws it with a quiet zone.

// Per version at level M: error-correction codewords per block and the blocks' data codewords.
const versionsM = [
  null,
  { ecc: 10, blocks: [16] },
  { ecc: 16, blocks: [28] },
  { ecc: 26, blocks: [44] },
  { ecc: 18, blocks: [32, 32] },
  { ecc: 24, blocks: [43, 43] },
  { ecc: 16, blocks: [27, 27, 27, 27] },
  { ecc: 18, blocks: [31, 31, 31, 31] },
  { ecc: 22, blocks: [38, 38, 39, 39] },
  { ecc: 22, blocks: [36, 36, 36, 37, 37] },
  { ecc: 26, blocks: [43, 43, 43, 43, 44] },
];

const alignment = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
const exp = new Array(512);
const log = new Array(256);
{
  let value = 1;
  for (let i = 0; i < 255; i++) {
    exp[i] = value;
    log[value] = i;
    value <<= 1;
    if (value & 0x100) value ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) exp[i] = exp[i - 255];
}

function multiply(a, b) {
  return a === 0 || b === 0 ? 0 : exp[log[a] + log[b]];
}

/** The Reed–Solomon remainder of `data` for `count` error-correction codewords. */
export function reedSolomon(data, count) {
  // The generator (x - α^0)(x - α^1)…(x - α^(count-1)), highest power first.
  let generator = [1];
  for (let i = 0; i < count; i++) {
    const next = new Array(generator.length + 1).fill(0);
    for (let j = 0; j < generator.length; j++) {
      next[j] ^= generator[j];
      next[j + 1] ^= multiply(generator[j], exp[i]);
    }
    generator = next;
  }
  const remainder = new Array(count).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift();
    remainder.push(0);
    for (let j = 0; j < count; j++) remainder[j] ^= multiply(generator[j + 1], factor);
  }
  return remainder;
}

/** The codewords of `bytes` for `version`: data and error correction, interleaved by block. */
function codewords(bytes, version) {
  const { ecc, blocks } = versionsM[version];
  const capacity = blocks.reduce((sum, size) => sum + size, 0);
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8 !== 0) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  for (let pad = 0; data.length < capacity; pad++) data.push(pad % 2 === 0 ? 0xec : 0x11);

  const dataBlocks = [];
  let offset = 0;
  for (const size of blocks) {
    dataBlocks.push(data.slice(offset, offset + size));
    offset += size;
  }
  const eccBlocks = dataBlocks.map((block) => reedSolomon(block, ecc));
  const result = [];
  for (let i = 0; i < Math.max(...blocks); i++) for (const block of dataBlocks) if (i < block.length) result.push(block[i]);
  for (let i = 0; i < ecc; i++) for (const block of eccBlocks) result.push(block[i]);
  return result;
}

/** BCH code of `value` (`dataBits` long) with `generator` (degree `degree`). */
function bch(value, generator, degree) {
  let remainder = value << degree;
  const top = 1 << degree;
  for (let bit = 31; bit >= degree; bit--) {
    if (remainder & (top << (bit - degree))) remainder ^= generator << (bit - degree);
  }
  return (value << degree) | remainder;
}

const masks = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/** The modules for `text` (UTF-8), true where dark; throws when it is longer than version 10 holds. */
export function qrMatrix(text) {
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  while (version <= 10) {
    const capacity = versionsM[version].blocks.reduce((sum, size) => sum + size, 0);
    const header = 4 + (version < 10 ? 8 : 16);
    if (header + bytes.length * 8 <= capacity * 8) break;
    version++;
  }
  if (version > 10) throw new Error("Too long for a QR code here.");
  const size = 17 + 4 * version;
  const grid = Array.from({ length: size }, () => new Array(size).fill(false));
  const reserved = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (r, c, dark) => {
    grid[r][c] = dark;
    reserved[r][c] = true;
  };

  // Finder patterns with their separators.
  for (const [top, left] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = top + r;
        const col = left + c;
        if (row < 0 || col < 0 || row >= size || col >= size) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        set(row, col, ring !== 2 && ring !== 4);
      }
    }
  }
  // Alignment patterns, except where they would cover a finder.
  const centers = alignment[version];
  for (const r of centers) {
    for (const c of centers) {
      if ((r === 6 && c === 6) || (r === 6 && c === size - 7) || (r === size - 7 && c === 6)) continue;
      for (let dr = -2; dr <= 2; dr++) {
        for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
      }
    }
  }
  // Timing patterns.
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  // The dark module, and room for the format and version information.
  set(size - 8, 8, true);
  for (let i = 0; i < 9; i++) {
    reserved[8][i] = reserved[i][8] = true;
    if (i < 8) reserved[8][size - 1 - i] = reserved[size - 1 - i][8] = true;
  }
  if (version >= 7) {
    const info = bch(version, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const dark = ((info >>> i) & 1) === 1;
      const a = Math.floor(i / 3);
      const b = size - 11 + (i % 3);
      set(a, b, dark);
      set(b, a, dark);
    }
  }

  // Data, in two-column strips from the bottom right, up and down in turn, skipping the timing column.
  const data = codewords(bytes, version);
  const bits = data.flatMap((byte) => Array.from({ length: 8 }, (_, i) => ((byte >>> (7 - i)) & 1) === 1));
  const positions = [];
  let upward = true;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (const col of [right, right - 1]) if (!reserved[row][col]) positions.push([row, col]);
    }
    upward = !upward;
  }
  positions.forEach(([row, col], index) => (grid[row][col] = bits[index] ?? false));

  // The mask with the lowest penalty, with its format information.
  let best = null;
  for (let mask = 0; mask < 8; mask++) {
    const candidate = grid.map((row) => row.slice());
    for (const [row, col] of positions) if (masks[mask](row, col)) candidate[row][col] = !candidate[row][col];
    placeFormat(candidate, mask, size);
    const score = penalty(candidate);
    if (!best || score < best.score) best = { score, grid: candidate };
  }
  return best.grid;
}

function placeFormat(grid, mask, size) {
  // Level M is 00, so the five data bits are the mask's; bit 14 is the most significant.
  const format = bch(mask, 0x537, 10) ^ 0x5412;
  const bit = (i) => ((format >>> i) & 1) === 1;
  // Around the top-left finder: down column 8, then along row 8 to the left.
  for (let i = 0; i <= 5; i++) grid[i][8] = bit(i);
  grid[7][8] = bit(6);
  grid[8][8] = bit(7);
  grid[8][7] = bit(8);
  for (let i = 9; i < 15; i++) grid[8][14 - i] = bit(i);
  // The copy: along row 8 under the top-right finder, and up column 8 beside the bottom-left one.
  for (let i = 0; i < 8; i++) grid[8][size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i++) grid[size - 15 + i][8] = bit(i);
  grid[size - 8][8] = true;
}

function penalty(grid) {
  const size = grid.length;
  let score = 0;
  const lines = [];
  for (let i = 0; i < size; i++) {
    lines.push(grid[i]);
    lines.push(grid.map((row) => row[i]));
  }
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) {
        run++;
      } else {
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
    }
    const text = line.map((dark) => (dark ? "1" : "0")).join("");
    for (const pattern of ["10111010000", "00001011101"]) {
      for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) score += 40;
    }
  }
  for (let r = 0; r < size - 1; r++) {
    for (let c = 0; c < size - 1; c++) {
      const dark = grid[r][c];
      if (grid[r][c + 1] === dark && grid[r + 1][c] === dark && grid[r + 1][c + 1] === dark) score += 3;
    }
  }
  const darkCount = grid.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
  score += 10 * Math.floor(Math.abs((darkCount * 100) / (size * size) - 50) / 5);
  return score;
}

/** An SVG element drawing the code for `text`, with a four-module quiet zone. */
export function qrSvg(text) {
  const grid = qrMatrix(text);
  const size = grid.length + 8;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `QR code for ${text}`);
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", String(size));
  background.setAttribute("height", String(size));
  background.setAttribute("fill", "#fff");
  const path = document.createElementNS(ns, "path");
  let d = "";
  grid.forEach((row, r) => row.forEach((dark, c) => {
    if (dark) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  }));
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(background, path);
  return svg;
}
