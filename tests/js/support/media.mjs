// Media made by the tests themselves (no binary fixtures): a one-colour PNG, its colour read
// back (a loopback judge's eyes), and a short WAV tone. Not a test file itself.
import { crc32, deflateSync, inflateSync } from 'node:zlib';

export const COLOURS = { red: [220, 20, 20], green: [20, 180, 40], blue: [30, 60, 220] };

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A width x height 8-bit RGB PNG of one colour. */
export function png([r, g, b], width = 4, height = 4) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The colour name of a one-colour PNG as png() writes it (the judge's eyes), or null. */
export function pngColour(bytes) {
  if (!bytes || bytes.length < 8 || bytes.readUInt32BE(0) !== 0x89504e47) return null;
  let at = 8;
  const idat = [];
  while (at + 8 <= bytes.length) {
    const len = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const px = [raw[1], raw[2], raw[3]];
  const hit = Object.entries(COLOURS).find(([, c]) => c.every((v, i) => v === px[i]));
  return hit ? hit[0] : null;
}

/** A mono 16-bit PCM WAV: `ms` milliseconds of a 440 Hz tone at 8 kHz. */
export function wav(ms = 100) {
  const rate = 8000;
  const n = Math.round((rate * ms) / 1000);
  const pcm = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

