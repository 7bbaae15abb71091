// Conformance through the package: shared/rouge1_vectors.jsonl bit for bit, and every line of
// shared/case_oracles.jsonl by the comparison rules of shared/case_oracles.md.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { DATA, compareCaseResult, expectedErrorCode, readJsonl } from './helpers.mjs';

const fmt = (v) => (Object.is(v, -0) ? '-0.0' : String(v));

describe('rouge1_vectors.jsonl (Object.is on every float)', () => {
  const vectors = readJsonl(join(DATA, 'rouge1_vectors.jsonl'));
  vectors.forEach((v, n) => {
    test(`rouge1 #${n + 1}: ${JSON.stringify(v.candidate.slice(0, 40))}`, () => {
      const got = api.rouge1(v.candidate, v.reference);
      for (const key of ['precision', 'recall', 'fmeasure']) {
        assert.ok(Object.is(got[key], v[key]),
          `${key}: expected ${fmt(v[key])}, got ${fmt(got[key])}\n  candidate ${JSON.stringify(v.candidate)}\n  reference ${JSON.stringify(v.reference)}`);
      }
    });
  });
});

describe('case_oracles.jsonl (whole-case verdicts of ADK 2.13)', () => {
  const lines = readJsonl(join(DATA, 'case_oracles.jsonl'));
  for (const line of lines) {
    const label = `${line.id} [${line.tags.slice(0, 4).join(' ')}]`;
    test(label, async () => {
      const run = () => api.evaluateInvocations({
        evalCase: line.eval_case,
        actual: line.actual_invocations,
        config: line.config,
        evalSetId: 'case_oracles',
      });
      if ('error' in line) {
        let thrown;
        try {
          await run();
        } catch (e) {
          thrown = e;
        }
        assert.ok(thrown instanceof api.EvalError,
          `ADK raised ${JSON.stringify(line.error.split('\n')[0])}; expected an EvalError, got ${thrown === undefined ? 'a result' : thrown}`);
        const want = expectedErrorCode(line.error);
        if (want !== null) {
          assert.equal(thrown.code, want, `ADK raised ${line.error.split('\n')[0]}; got ${thrown.code} at ${thrown.path}: ${thrown.message}`);
        }
        return;
      }
      const got = await run();
      assert.equal(got.eval_id, line.eval_case.eval_id ?? line.eval_case.evalId);
      assert.equal(got.eval_set_id, 'case_oracles');
      const diffs = compareCaseResult(line.expected_result, got);
      assert.deepEqual(diffs, [], `${line.id} (${line.tags.join(' ')}):\n  ${diffs.slice(0, 12).join('\n  ')}`);
    });
  }
});
