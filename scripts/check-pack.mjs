// pkg/'s prepack: refuses to pack a package that scripts/build.sh has not completed, and
// writes nothing. Every entry of package.json `files` must be there (wasm/ as a real module,
// www/ built), and README.md, LICENSE and docs/ must be the repository's current ones, which
// build.sh copies in. Run from pkg/ (npm runs prepack there).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const pkg = process.cwd();
const root = join(pkg, '..');
const problems = [];
const { files = [] } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));

for (const entry of files) {
  const path = join(pkg, entry);
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) problems.push(`${entry} is missing`);
  else if (entry.endsWith('/') && (!st.isDirectory() || readdirSync(path).length === 0)) problems.push(`${entry} is empty`);
  else if (!entry.endsWith('/') && (!st.isFile() || st.size === 0)) problems.push(`${entry} is empty or not a file`);
}
const wasm = join(pkg, 'wasm', 'evalcore_core_bg.wasm');
if (existsSync(wasm) && readFileSync(wasm).subarray(0, 4).toString('hex') !== '0061736d') {
  problems.push('wasm/evalcore_core_bg.wasm is not a WebAssembly module');
}

// The copies build.sh makes: stale ones would publish old documentation.
const walk = (dir) => readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const copies = ['README.md', 'LICENSE'];
if (existsSync(join(root, 'docs'))) copies.push(...walk(join(root, 'docs')).map((p) => relative(root, p)));
for (const name of copies) {
  const source = join(root, name);
  const copy = join(pkg, name);
  if (!existsSync(source)) continue;
  if (!existsSync(copy)) problems.push(`${name} is missing`);
  else if (!readFileSync(copy).equals(readFileSync(source))) problems.push(`${name} differs from the repository's ${name}`);
}

if (problems.length > 0) {
  process.stderr.write(`evalcore: not packing an incomplete package (run bash scripts/build.sh first):\n${problems.map((p) => `  - ${p}\n`).join('')}`);
  process.exit(1);
}
