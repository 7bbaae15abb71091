// The JS skin's rooms (docs/layout.md), checked from the source tree's own imports: every
// relative import resolves where it is written (the viewer's too), no library module imports the
// package's entries, and only pkg/lib/wasm/ touches the wasm instance, the glue or a .wasm file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rel = (p) => relative(root, p).split(sep).join('/');

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

// Static imports and re-exports, side-effect imports and import() with a literal specifier.
const SPECIFIER = /(?:^|[\s;{}()])(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1|(?:^|[\s;{}()])import\s*(['"])([^'"]+)\3|\bimport\(\s*(['"])([^'"]+)\5\s*\)/g;

function importsOf(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(SPECIFIER)].map((m) => m[2] ?? m[4] ?? m[6]).filter((s) => s.startsWith('.'));
}

const lib = walk(join(root, 'pkg', 'lib')).filter((f) => f.endsWith('.js'));
const viewer = walk(join(root, 'www')).filter((f) => f.endsWith('.js'));
const entries = ['index.js', 'web.js', 'bin/evalcore.js'].map((f) => join(root, 'pkg', f));
// Build output the source tree holds only after scripts/build.sh.
const built = (target) => /^pkg\/(wasm|wasm-extras)\//.test(rel(target));

test('every relative import of the package and the viewer resolves in the source tree', () => {
  const broken = [];
  for (const file of [...lib, ...viewer, ...entries]) {
    for (const s of importsOf(file)) {
      const target = resolve(dirname(file), s);
      if (!built(target) && !existsSync(target)) broken.push(`${rel(file)} -> ${s}`);
    }
  }
  assert.deepEqual(broken, []);
  // The walk saw the imports it checks (a parser that found none would pass anything).
  assert.ok(lib.map(importsOf).flat().length > 300);
  assert.ok(viewer.map(importsOf).flat().some((s) => s === '../pkg/web.js'));
});

test('no library module imports a package entry', () => {
  const entryFiles = new Set(['pkg/index.js', 'pkg/web.js']);
  const hits = lib.flatMap((file) => importsOf(file)
    .filter((s) => entryFiles.has(rel(resolve(dirname(file), s))))
    .map((s) => `${rel(file)} -> ${s}`));
  assert.deepEqual(hits, []);
});

test('only pkg/lib/wasm/ and the entries touch the wasm instance, the glue and the .wasm files', () => {
  const touches = (target) => /^pkg\/lib\/wasm\/(instance|extras|node_start|workerd_start)\.js$/.test(target)
    || /^pkg\/(wasm|wasm-extras)\//.test(target);
  const hits = lib.filter((f) => !rel(f).startsWith('pkg/lib/wasm/')).flatMap((file) => importsOf(file)
    .filter((s) => {
      const target = rel(resolve(dirname(file), s));
      // A start module is what a Node-only or workerd module imports to have the instance ready.
      return touches(target) && !/(node|workerd)_start\.js$/.test(target);
    })
    .map((s) => `${rel(file)} -> ${s}`));
  assert.deepEqual(hits, []);
  // Each start module is imported where its runtime begins.
  const importers = (name) => [...lib, ...entries].filter((f) => importsOf(f)
    .some((s) => rel(resolve(dirname(f), s)) === `pkg/lib/wasm/${name}`)).map(rel);
  assert.ok(importers('node_start.js').includes('pkg/index.js'));
  assert.ok(importers('workerd_start.js').includes('pkg/lib/server/worker.js'));
});
