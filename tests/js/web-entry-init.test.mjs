// The API smoke suite against the browser/worker entry (pkg/web.js), initialised with
// `await init(bytes)`. Runs in its own process (node --test isolates files).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from '../../pkg/web.js';
import { apiSuite } from './api-suite.mjs';
import { EXTRAS_WASM_FILE, WASM_FILE } from './helpers.mjs';

test('web entry: using the API before init() says what to do', () => {
  assert.throws(() => api.rouge1('a', 'a'), /init\(\)/);
  assert.throws(() => api.loadEvalSet('{}'), /init\(\)/);
});

test('web entry: await init(bytes), concurrent calls share one instantiation', async () => {
  const [a, b] = [api.init(readFileSync(WASM_FILE)), api.init(readFileSync(WASM_FILE))];
  assert.equal(a, b);
  await a;
  await api.init(); // idempotent once ready: no fetch of a default URL
  assert.equal(api.rouge1('a b', 'a b').fmeasure, 1);
  await api.initExtras(readFileSync(EXTRAS_WASM_FILE));
});

test('web entry: the same exports as the node entry', async () => {
  const node = await import('../../pkg/index.js');
  assert.deepEqual(Object.keys(api).sort(), Object.keys(node).sort());
  assert.equal(node.EvalError, api.EvalError, 'one EvalError class for both entries');
});

apiSuite(api, 'web entry (init)');
