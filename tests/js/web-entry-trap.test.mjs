// Trap recovery through the browser/worker entry (pkg/web.js): after `await init(Response)` the
// replacement instance comes from the module init compiled, with no second fetch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from '../../pkg/web.js';
import { __trapForTesting } from '../../pkg/lib/wasm/test_hooks.js';
import { MINIMAL_SET, WASM_FILE } from './helpers.mjs';

test('web entry: a trap after init(Response) is an EvalError "trap", the fresh instance works', async () => {
  let fetched = 0;
  const response = () => {
    fetched++;
    return new Response(readFileSync(WASM_FILE), { headers: { 'content-type': 'application/wasm' } });
  };
  await api.init(response());
  assert.equal(api.rouge1('a b', 'a b').fmeasure, 1);
  assert.throws(() => __trapForTesting(), (e) => e instanceof api.EvalError && e.code === 'trap');
  assert.equal(api.loadEvalSet(MINIMAL_SET).eval_set_id, 'simple');
  await assert.rejects(__trapForTesting(0, { async: true }), (e) => e instanceof api.EvalError && e.code === 'trap');
  const result = await api.evaluate({ evalSet: MINIMAL_SET, agent: async () => 'It is sunny in Paris.' });
  assert.equal(result.eval_case_results.length, 1);
  assert.equal(api.coreMemory().replacements, 2);
  assert.equal(fetched, 1, 'the module is compiled once; replacements instantiate it again');
});
