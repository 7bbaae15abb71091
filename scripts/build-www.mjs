// Copies the viewer's sources (www/) into the package (pkg/www/), which `evalcore view` serves
// and npm ships, and prints the page's weight: every file it loads, raw and gzip -9.
// The page imports the package's browser entry (../web.js) as it is: no bundler step.
import { cpSync, readdirSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'www');
const out = join(root, 'pkg', 'www');
rmSync(out, { recursive: true, force: true });
cpSync(src, out, { recursive: true, filter: (p) => !/\.(md|test\.mjs)$/.test(p) });
// In the source tree the viewer imports the package as `../pkg/...` (so its imports resolve
// where it is written); in the package it stands beside them, one folder up.
for (const name of readdirSync(out)) {
  if (!name.endsWith('.js')) continue;
  const file = join(out, name);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/(['"])\.\.\/pkg\//g, '$1../'));
}

// What a browser fetches for the page: the viewer, then web.js and the modules it imports.
const pkg = join(root, 'pkg');
const seen = new Set();
const queue = [join(out, 'index.html'), join(out, 'viewer.css'), join(out, 'app.js')];
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file) || !existsSync(file)) continue;
  seen.add(file);
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)) {
    queue.push(join(dirname(file), m[1] || m[2]));
  }
}
seen.add(join(pkg, 'wasm', 'evalcore_core_bg.wasm'));
let raw = 0, gz = 0;
const rows = [];
for (const f of [...seen].sort()) {
  if (!existsSync(f)) continue;
  const bytes = readFileSync(f);
  const z = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length; gz += z;
  rows.push([relative(pkg, f), bytes.length, z]);
}
console.log(`[build-www] pkg/www/ from www/ (${readdirSync(out).length} files); what the page may load (the report writer only on first use):`);
for (const [f, r, z] of rows) console.log(`  ${f.padEnd(40)} ${String(r).padStart(9)}  gzip -9 ${String(z).padStart(8)}`);
console.log(`  ${'total'.padEnd(40)} ${String(raw).padStart(9)}  gzip -9 ${String(gz).padStart(8)}  (${rows.length} requests)`);

