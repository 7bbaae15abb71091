// The browser/worker entry from a fetch Response (what a page passes), after a failed attempt.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from '../../pkg/web.js';
import { assertHealthy } from './api-suite.mjs';
import { WASM_FILE } from './helpers.mjs';

test('web entry: a failed init() can be retried', async () => {
  await assert.rejects(api.init(new Uint8Array([0, 1, 2, 3])), WebAssembly.CompileError);
  assert.throws(() => api.rouge1('a', 'a'), /init\(\)/);
});

test('web entry: init(Promise<Response>) streams the module', async () => {
  const response = new Response(readFileSync(WASM_FILE), { headers: { 'content-type': 'application/wasm' } });
  await api.init(Promise.resolve(response));
  assertHealthy(api);
  assert.equal((await api.evaluateInvocations({
    evalCase: { eval_id: 'c', conversation: [] }, actual: [],
  })).final_eval_status, 'NOT_EVALUATED');
});
