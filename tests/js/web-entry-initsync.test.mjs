// The API smoke suite against the browser/worker entry (pkg/web.js), initialised synchronously
// from a compiled WebAssembly.Module, as workerd hands it over.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from '../../pkg/web.js';
import { apiSuite } from './api-suite.mjs';
import { EXTRAS_WASM_FILE, WASM_FILE } from './helpers.mjs';

test('web entry: initSync needs a source', () => {
  assert.throws(() => api.initSync(), TypeError);
  assert.throws(() => api.rouge1('a', 'a'), /init\(\)/);
});

test('web entry: initSync(WebAssembly.Module)', () => {
  api.initSync(new WebAssembly.Module(readFileSync(WASM_FILE)));
  api.initSync(new Uint8Array(0)); // already initialised: ignored
  assert.equal(api.rouge1('a b', 'a b').fmeasure, 1);
});

test('web entry: initExtras(WebAssembly.Module), as workerd hands it over', async () => {
  await api.initExtras(new WebAssembly.Module(readFileSync(EXTRAS_WASM_FILE)));
});

apiSuite(api, 'web entry (initSync)');
