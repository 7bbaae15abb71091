// The API smoke suite against the Node entry (pkg/index.js): ready at import, no init call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { apiSuite } from './api-suite.mjs';

test('node entry: ready at import; init/initSync are harmless no-ops', async () => {
  assert.equal(typeof api.rouge1('a', 'a').fmeasure, 'number');
  await api.init();
  api.initSync();
  assert.equal(api.rouge1('a b', 'a b').fmeasure, 1);
});

test('node entry: exports exactly the documented API', () => {
  assert.deepEqual(Object.keys(api).sort(), [
    'EvalError', 'coreMemory', 'coreVersion', 'evaluate', 'evaluateInvocations', 'formatReport', 'getLimits', 'init', 'initExtras', 'initSync', 'initTraces',
    'loadEvalConfig', 'loadEvalSet', 'loadEvalSetResult', 'loadEvaluationDataset', 'loadTraces', 'metricsInfo', 'planJudgeCalls', 'prepareCase', 'rouge1', 'rouge1Batch', 'rouge1Spans', 'setLimits', 'setMemoryCeiling',
    'toEvaluationDataset', 'tracesToEvalSet', 'validateEvalConfig', 'validateEvalSet',
  ]);
});

apiSuite(api, 'node entry');
