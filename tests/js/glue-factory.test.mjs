// scripts/glue-factory.mjs: the built factory gives independent copies of the glue, and a glue of
// an unexpected shape fails the build instead of producing a factory that shares state.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createGlue } from '../../pkg/wasm/evalcore_core_factory.js';
import { PKG, ROOT, WASM_FILE } from './helpers.mjs';

const SCRIPT = join(ROOT, 'scripts', 'glue-factory.mjs');
const work = mkdtempSync(join(tmpdir(), 'evalcore-glue-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('two copies of the glue hold two instances: a trap in one leaves the other working', () => {
  const module = new WebAssembly.Module(readFileSync(WASM_FILE));
  const a = createGlue((ex) => ex);
  const b = createGlue((ex) => ex);
  a.initSync({ module });
  b.initSync({ module });
  assert.notEqual(a.rawExports(), b.rawExports());
  assert.equal(a.module(), module);
  assert.throws(() => a.__trapForTesting(0), WebAssembly.RuntimeError);
  assert.deepEqual(Array.from(b.rouge1('a b', 'a b')), [1, 1, 1]);
});

function run(glueText) {
  const input = join(work, `glue-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(input, glueText);
  return spawnSync(process.execPath, [SCRIPT, input, join(work, 'out.js')], { encoding: 'utf8' });
}

test('a glue of another shape fails loudly', () => {
  const glue = readFileSync(join(PKG, 'wasm', 'evalcore_core.js'), 'utf8');
  assert.equal(run(glue).status, 0, 'the real glue converts');
  const cases = [
    [`import { x } from './snippets/a.js';\n${glue}`, /imports other modules/],
    [glue.replace('export { initSync, __wbg_init as default };', ''), /no "export \{ initSync/],
    [glue.replace('wasm = instance.exports;', 'wasm = instance["exports"];'), /does not occur exactly once/],
    [`${glue}\nexport const extra = 1;\n`, /an export the factory does not know/],
  ];
  for (const [text, why] of cases) {
    const r = run(text);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, why);
  }
});
