// Custom metrics (SPEC §2.4, §6): host functions registered by name through `customMetrics`,
// run when the name is in `criteria`, in evaluate() and in evaluateInvocations(). What the
// function receives, every return shape (number, {score, eval_status}, {score, per_invocation}),
// sync and async, and failures (NOT_EVALUATED, reason custom_metric_error) that never abort
// the case.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';

const U = (text) => ({ role: 'user', parts: [{ text }] });
const M = (text) => ({ role: 'model', parts: [{ text }] });
const textOf = (content) => (content?.parts ?? []).map((p) => p.text).filter((t) => t).join('\n');

const CASE = {
  eval_id: 'word_count',
  conversation: [
    { invocation_id: 'x-1', user_content: U('Describe Paris in a few words.'), final_response: M('Paris is the capital of France.') },
    { invocation_id: 'x-2', user_content: U('And Rome?'), final_response: M('Rome is the capital of Italy.'), intermediate_data: { tool_uses: [{ name: 'lookup', args: { city: 'Rome' } }] } },
  ],
};
const SET = { eval_set_id: 'custom', eval_cases: [CASE] };
const REPLIES = ['Paris: capital, river, lights.', { finalResponse: 'Rome is old.', toolCalls: [{ name: 'lookup', args: { city: 'Rome' } }] }];
const agent = (t) => REPLIES[t.turnIndex];
/** Actual invocations for evaluateInvocations. */
const ACTUAL = [
  { invocation_id: 'a-1', user_content: U('Describe Paris in a few words.'), final_response: M('Paris: capital, river, lights.'), intermediate_data: { invocation_events: [] } },
  { invocation_id: 'a-2', user_content: U('And Rome?'), final_response: M('Rome is old.'), intermediate_data: { invocation_events: [{ author: 'a', content: { role: 'model', parts: [{ function_call: { name: 'lookup', args: { city: 'Rome' } } }] } }] } },
];

const overall = (r, name = 'my_metric') => {
  const m = r.overall_eval_metric_results.find((x) => x.metric_name === name);
  assert.ok(m, `no result for ${name}`);
  return m;
};
const perInv = (r, name = 'my_metric') => r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === name));

/** Runs `fn` as my_metric through evaluate (entry 'evaluate') or evaluateInvocations. */
async function score(entry, fn, { criteria = { my_metric: 0.5 }, extra = {} } = {}) {
  const config = { criteria };
  if (entry === 'evaluate') {
    const res = await ec.evaluate({ evalSet: SET, agent, config, customMetrics: { my_metric: fn }, ...extra });
    assert.equal(res.eval_case_results.length, 1);
    return res.eval_case_results[0];
  }
  return ec.evaluateInvocations({ evalCase: CASE, actual: ACTUAL, config, customMetrics: { my_metric: fn }, evalSetId: 'custom', ...extra });
}

for (const entry of ['evaluate', 'evaluateInvocations']) {
  describe(`custom metrics through ${entry}`, () => {
    test('a sync function returning a number: pass rule against the threshold', async () => {
      let r = await score(entry, () => 0.7);
      assert.equal(overall(r).score, 0.7);
      assert.equal(overall(r).threshold, 0.5);
      assert.equal(overall(r).eval_status, 'PASSED');
      assert.equal(r.final_eval_status, 'PASSED');
      // No per-invocation scores given: placeholders, one per invocation (ADK's rule).
      assert.deepEqual(perInv(r).map((c) => [c.score, c.eval_status]), [[null, 'NOT_EVALUATED'], [null, 'NOT_EVALUATED']]);
      r = await score(entry, () => 0.3);
      assert.equal(overall(r).eval_status, 'FAILED');
      assert.equal(r.final_eval_status, 'FAILED');
      r = await score(entry, () => 0.5);
      assert.equal(overall(r).eval_status, 'PASSED', 'score >= threshold passes');
    });

    test('an async function returning {score, eval_status}: the function\'s own status wins', async () => {
      let r = await score(entry, async () => { await new Promise((res) => setTimeout(res, 2)); return { score: 0.2, eval_status: 'PASSED' }; });
      assert.equal(overall(r).score, 0.2);
      assert.equal(overall(r).eval_status, 'PASSED');
      r = await score(entry, async () => ({ score: 0.9, eval_status: 2 }));
      assert.equal(overall(r).eval_status, 'FAILED', 'ADK integer status 2 = FAILED');
      r = await score(entry, () => ({ score: 12, evalStatus: 'informational' }));
      assert.equal(overall(r).eval_status, 'INFORMATIONAL');
      assert.equal(r.final_eval_status, 'NOT_EVALUATED', 'an informational metric does not decide the case');
      r = await score(entry, () => ({ score: 0.9 }));
      assert.equal(overall(r).eval_status, 'PASSED', 'status defaults to the pass rule');
    });

    test('{score, per_invocation}: one cell per invocation, numbers or {score, eval_status}', async () => {
      let r = await score(entry, () => ({ score: 0.7, per_invocation: [0.4, 1] }));
      assert.equal(overall(r).score, 0.7);
      assert.deepEqual(perInv(r).map((c) => [c.score, c.eval_status, c.threshold]), [[0.4, 'FAILED', 0.5], [1, 'PASSED', 0.5]]);
      r = await score(entry, async () => ({ score: 0.1, eval_status: 'FAILED', perInvocation: [{ score: 0.1, eval_status: 'PASSED' }, null] }));
      assert.deepEqual(perInv(r).map((c) => [c.score, c.eval_status]), [[0.1, 'PASSED'], [null, 'NOT_EVALUATED']]);
      assert.equal(overall(r).eval_status, 'FAILED');
      // A per_invocation list of the wrong length is not attached (ADK: placeholders).
      r = await score(entry, () => ({ score: 1, per_invocation: [1] }));
      assert.equal(overall(r).eval_status, 'PASSED');
      assert.deepEqual(perInv(r).map((c) => c.eval_status), ['NOT_EVALUATED', 'NOT_EVALUATED']);
    });

    test('a throwing function: that metric NOT_EVALUATED, reason custom_metric_error; other metrics unaffected', async () => {
      const criteria = { my_metric: 0.5, tool_trajectory_avg_score: 1.0 };
      for (const fn of [
        () => { throw new Error('my metric exploded'); },
        async () => { throw new RangeError('my metric exploded asynchronously'); },
        () => Promise.reject('my metric exploded as a string'),
      ]) {
        const r = await score(entry, fn, { criteria });
        const m = overall(r);
        assert.equal(m.eval_status, 'NOT_EVALUATED');
        assert.equal(m.score, null);
        assert.equal(m.details.reason, 'custom_metric_error');
        assert.match(m.details.error, /my metric exploded/);
        assert.match(m.details.error, /my_metric/);
        assert.deepEqual(perInv(r).map((c) => c.eval_status), ['NOT_EVALUATED', 'NOT_EVALUATED']);
        assert.equal(overall(r, 'tool_trajectory_avg_score').score, 1);
        assert.equal(r.final_eval_status, 'PASSED', 'the other metric decides the case');
        assert.equal(r.error, undefined);
      }
    });

    test('malformed return values are custom_metric_error with a readable message', async () => {
      const bad = [
        [() => 'high', /number/],
        [() => ({ score: '0.9' }), /score/],
        [() => ({ score: 0.9, eval_status: 'GREAT' }), /GREAT/],
        [() => ({ score: 0.9, per_invocation: 'all good' }), /per_invocation/],
        [() => ({ score: 0.9, per_invocation: ['x', 1] }), /number/],
        [() => [0.9], /number/],
      ];
      for (const [fn, re] of bad) {
        const r = await score(entry, fn);
        const m = overall(r);
        assert.equal(m.eval_status, 'NOT_EVALUATED', String(fn));
        assert.equal(m.details.reason, 'custom_metric_error', String(fn));
        assert.match(m.details.error, re, `${fn}: ${m.details.error}`);
      }
    });

    test('a non-finite score is not silently dropped: NOT_EVALUATED with details.error', async () => {
      for (const fn of [() => Number.NaN, () => ({ score: Number.POSITIVE_INFINITY })]) {
        const r = await score(entry, fn);
        const m = overall(r);
        assert.notEqual(m.eval_status, 'PASSED', String(fn));
        assert.equal(m.eval_status, 'NOT_EVALUATED', String(fn));
        assert.equal(typeof m.details.error, 'string', `${fn}: NOT_EVALUATED without saying why (details ${JSON.stringify(m.details)})`);
      }
    });

    test('null / undefined: no score → NOT_EVALUATED', async () => {
      for (const fn of [() => null, () => undefined, async () => ({ score: null })]) {
        const r = await score(entry, fn);
        assert.equal(overall(r).eval_status, 'NOT_EVALUATED', String(fn));
        assert.equal(overall(r).score, null);
      }
    });

    test('no score says why: reason custom_not_evaluated, the metric\'s own reason quoted', async () => {
      for (const fn of [() => null, async () => ({ score: null })]) {
        const m = overall(await score(entry, fn));
        assert.equal(m.details.reason, 'custom_not_evaluated', String(fn));
        assert.match(m.details.error, /returned no score/);
      }
      const m = overall(await score(entry, () => ({ score: null, reason: 'no tool calls to grade' })));
      assert.equal(m.details.reason, 'custom_not_evaluated');
      assert.match(m.details.error, /no tool calls to grade/);
    });

    test('the function receives {metricName, criterion, threshold, actualInvocations, expectedInvocations, conversationScenario}', async () => {
      const inputs = [];
      const r = await score(entry, (input) => { inputs.push(input); return 1; }, {
        criteria: { my_metric: { threshold: 0.5, max_words: 12, lowerIsBetter: true } },
      });
      assert.equal(inputs.length, 1, 'called once per case');
      const input = inputs[0];
      assert.deepEqual(Object.keys(input).sort(), ['actualInvocations', 'conversationScenario', 'criterion', 'expectedInvocations', 'metricName', 'threshold']);
      assert.equal(input.metricName, 'my_metric');
      assert.equal(input.threshold, 0.5);
      assert.equal(input.criterion.threshold, 0.5);
      assert.equal(input.criterion.max_words, 12, 'criterion extras are kept verbatim');
      assert.equal(input.criterion.lowerIsBetter, true);
      assert.equal(input.conversationScenario, null);
      assert.equal(input.actualInvocations.length, 2);
      assert.deepEqual(input.actualInvocations.map((i) => textOf(i.final_response)), ['Paris: capital, river, lights.', 'Rome is old.']);
      assert.deepEqual(input.actualInvocations.map((i) => textOf(i.user_content)), ['Describe Paris in a few words.', 'And Rome?']);
      const calls = input.actualInvocations[1].intermediate_data.invocation_events.flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => p.function_call));
      assert.deepEqual(calls.map((c) => [c.name, c.args]), [['lookup', { city: 'Rome' }]]);
      assert.equal(input.expectedInvocations.length, 2);
      assert.deepEqual(input.expectedInvocations.map((i) => i.invocation_id), ['x-1', 'x-2']);
      assert.deepEqual(input.expectedInvocations[1].final_response, M('Rome is the capital of Italy.'));
      assert.deepEqual(input.expectedInvocations[1].intermediate_data.tool_uses, [{ name: 'lookup', args: { city: 'Rome' } }]);
      // The result's criterion is the configured one.
      assert.equal(overall(r).criterion.max_words, 12);
    });

    test('the function gets a copy: mutating its input changes nothing in the result', async () => {
      const r = await score(entry, ({ actualInvocations, expectedInvocations }) => {
        actualInvocations[0].final_response.parts[0].text = 'MUTATED';
        expectedInvocations[0].user_content.parts[0].text = 'MUTATED';
        return 1;
      }, { criteria: { my_metric: 0.5, response_match_score: 0.0 } });
      const p = r.eval_metric_result_per_invocation[0];
      assert.equal(textOf(p.actual_invocation.final_response), 'Paris: capital, river, lights.');
      assert.equal(textOf(p.expected_invocation.user_content), 'Describe Paris in a few words.');
    });

    test('registration: only metrics named in criteria run; a name without a function is unknown', async () => {
      let called = 0;
      const fn = () => { called += 1; return 1; };
      let r = await score(entry, fn, { criteria: { response_match_score: 0.0 } });
      assert.equal(called, 0);
      assert.ok(!r.overall_eval_metric_results.some((m) => m.metric_name === 'my_metric'));
      const args = { criteria: { my_metric: 0.5, other_metric: 0.5 } };
      r = await score(entry, fn, args);
      assert.equal(called, 1);
      const other = overall(r, 'other_metric');
      assert.equal(other.eval_status, 'NOT_EVALUATED');
      assert.equal(other.details.reason, 'unknown_metric');
    });

    test('a custom function replaces a built-in metric of the same name (ADK: re-registering replaces)', async () => {
      let r;
      if (entry === 'evaluate') {
        const res = await ec.evaluate({ evalSet: SET, agent, config: { criteria: { response_match_score: 0.5 } }, customMetrics: { response_match_score: () => 0.25 } });
        r = res.eval_case_results[0];
      } else {
        r = await ec.evaluateInvocations({ evalCase: CASE, actual: ACTUAL, config: { criteria: { response_match_score: 0.5 } }, customMetrics: { response_match_score: () => 0.25 } });
      }
      assert.equal(overall(r, 'response_match_score').score, 0.25);
      assert.equal(overall(r, 'response_match_score').eval_status, 'FAILED');
    });

    test('customMetrics must map names to functions', async () => {
      const call = (customMetrics) => (entry === 'evaluate'
        ? ec.evaluate({ evalSet: SET, agent, config: { criteria: { my_metric: 0.5 } }, customMetrics })
        : ec.evaluateInvocations({ evalCase: CASE, actual: ACTUAL, config: { criteria: { my_metric: 0.5 } }, customMetrics }));
      for (const [bad, path] of [[{ my_metric: 0.5 }, '$.customMetrics.my_metric'], [[() => 1], '$.customMetrics'], ['fn', '$.customMetrics']]) {
        await assert.rejects(call(bad), (e) => {
          assert.ok(e instanceof ec.EvalError, String(e));
          assert.equal(e.code, 'schema');
          assert.equal(e.path, path);
          return true;
        });
      }
    });
  });
}

describe('custom metrics: scenario cases and runs', () => {
  test('a scenario case: conversationScenario is given, expectedInvocations is null', async () => {
    const scenario = { starting_prompt: 'Hi, book me a table.', conversation_plan: 'Book a table for two.' };
    let input;
    const r = await ec.evaluateInvocations({
      evalCase: { eval_id: 'sc', conversation_scenario: scenario },
      actual: ACTUAL.slice(0, 1),
      config: { criteria: { my_metric: 0.5 } },
      customMetrics: { my_metric: (i) => { input = i; return { score: 1, per_invocation: [1] }; } },
    });
    assert.deepEqual(input.conversationScenario, scenario);
    assert.equal(input.expectedInvocations, null);
    assert.equal(input.actualInvocations.length, 1);
    assert.equal(overall(r).eval_status, 'PASSED');
    assert.equal(perInv(r)[0].score, 1);
  });

  test('evaluate calls the function once per case per run, with that run\'s invocations', async () => {
    const seen = [];
    const res = await ec.evaluate({
      evalSet: { eval_set_id: 's', eval_cases: [{ eval_id: 'a', conversation: [{ user_content: U('q'), final_response: M('r') }] }, { eval_id: 'b', conversation: [{ user_content: U('q'), final_response: M('r') }] }] },
      numRuns: 3,
      agent: (t) => `${t.evalId}/${t.run}`,
      config: { criteria: { my_metric: 0.5 } },
      customMetrics: { my_metric: async ({ actualInvocations }) => { seen.push(textOf(actualInvocations[0].final_response)); return 1; } },
    });
    assert.deepEqual(seen.sort(), ['a/0', 'a/1', 'a/2', 'b/0', 'b/1', 'b/2']);
    assert.ok(res.eval_case_results.every((r) => overall(r).eval_status === 'PASSED'));
  });

  test('a custom metric throwing in one case does not disturb the other cases', async () => {
    const res = await ec.evaluate({
      evalSet: { eval_set_id: 's', eval_cases: ['a', 'b', 'c'].map((id) => ({ eval_id: id, conversation: [{ user_content: U(id), final_response: M('r') }] })) },
      agent: (t) => t.text,
      config: { criteria: { my_metric: 0.5 } },
      customMetrics: { my_metric: ({ actualInvocations }) => { if (textOf(actualInvocations[0].final_response) === 'b') throw new Error('no score for b'); return 0.75; } },
    });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(overall(r.b).details.reason, 'custom_metric_error');
    assert.equal(r.b.final_eval_status, 'NOT_EVALUATED');
    assert.equal(r.a.final_eval_status, 'PASSED');
    assert.equal(overall(r.c).score, 0.75);
  });
});
