// Lists the sections of a .wasm file (custom sections by name), one per line: `id name size`.
// build.sh uses it to prove the shipped module carries no `name` section.
import { readFileSync } from 'node:fs';

const bytes = readFileSync(process.argv[2]);
const ids = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export',
  'start', 'element', 'code', 'data', 'datacount', 'tag'];

function leb(at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

let at = 8; // magic + version
while (at < bytes.length) {
  const id = bytes[at++];
  let size;
  [size, at] = leb(at);
  let name = ids[id] ?? `unknown(${id})`;
  if (id === 0) {
    const [len, start] = leb(at);
    name = `custom:${bytes.toString('utf8', start, start + len)}`;
  }
  console.log(`${id} ${name} ${size}`);
  at += size;
}
