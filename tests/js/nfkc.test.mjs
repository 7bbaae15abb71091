// The wasm build leaves the Unicode normalisation tables out and takes NFKC from the JS engine
// (src/text/unicode.rs). This checks the engine against what the tables give, as Python 3.11
// normalises (tests/data/nfkc14.json, written by tests/nfkc_table.rs), for every code point
// assigned in Unicode 14; then that the core really normalises through it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { DATA } from './helpers.mjs';

const table = JSON.parse(readFileSync(join(DATA, 'nfkc14.json'), 'utf8'));

/** Every code point the engine must normalise as Unicode 14 does, checked; the mismatches listed. */
export function engineMismatches(normalize = (s) => s.normalize('NFKC')) {
  const skip = table.unassigned_in_14;
  const bad = [];
  let checked = 0;
  let k = 0;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    while (k < skip.length && skip[k][1] < cp) k++;
    if (k < skip.length && skip[k][0] <= cp) continue;
    const s = String.fromCodePoint(cp);
    const want = table.nfkc[cp.toString(16).toUpperCase()];
    const expected = want === undefined ? s : String.fromCodePoint(...want.split(' ').map((h) => parseInt(h, 16)));
    if (normalize(s) !== expected) bad.push(cp.toString(16));
    checked++;
  }
  return { checked, bad };
}

test("the engine's NFKC equals Unicode 14's on every code point assigned in 14", () => {
  const { checked, bad } = engineMismatches();
  assert.ok(checked > 300_000, `checked ${checked}`);
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} code points differ`);
  assert.ok(Object.keys(table.nfkc).length > 4000);
});

test('the check can fail: an engine without compatibility mappings is caught', () => {
  const { bad } = engineMismatches((s) => s.normalize('NFC'));
  assert.ok(bad.length > 3000, `${bad.length} differences found`);
});

test('the core normalises through the engine: compatibility forms score as their plain forms', () => {
  assert.equal(api.rouge1('ﬁne ＡＢＣ x²', 'fine abc x2').fmeasure, 1);
  assert.equal(api.rouge1('Ⅻ ㎏', 'xii kg').fmeasure, 1);
  // A code point unassigned in Unicode 14 (U+1FAE8, assigned in 15) passes through unchanged.
  assert.equal(api.rouge1('caf\u00e9 \u{1FAE8}', 'cafe\u0301 \u{1FAE8}').fmeasure, 1);
});
