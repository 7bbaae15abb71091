// Per-invocation results cross from the core as columns (src/api/columns.rs) and are rebuilt as
// rows by pkg/lib/wasm/columns.js. The rows must equal, key order included, what the core writes as
// evalcore's JSON for the same input: checked on every case oracle, with text and with object
// input, with and without echoed invocations, one-shot and through a prepared case.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as api from '../../pkg/index.js';
import { callSync } from '../../pkg/lib/wasm/instance.js';
import { DATA, readJsonl } from './helpers.mjs';

// The core's row form, through the raw export without the skin's wire options.
function rows(args) {
  const { evalCase, actual, ...rest } = args;
  const env = JSON.parse(callSync((g) => g.evaluateInvocationsJson(JSON.stringify(evalCase), JSON.stringify(actual), JSON.stringify(rest))));
  if ('error' in env) return { error: env.error };
  return env.ok;
}

const same = (a, b, label) => assert.equal(JSON.stringify(a), JSON.stringify(b), label);

describe('column wire = row form', () => {
  const lines = readJsonl(join(DATA, 'case_oracles.jsonl'));
  test(`every case oracle (${lines.length}), objects and text, invocations on and off`, async () => {
    let compared = 0;
    for (const line of lines) {
      for (const includeInvocations of [true, false]) {
        const args = { evalCase: line.eval_case, actual: line.actual_invocations, config: line.config, evalSetId: 'cols', includeInvocations };
        const want = rows(args);
        if (want.error) continue;
        same(await api.evaluateInvocations(args), want, `${line.id} objects, includeInvocations ${includeInvocations}`);
        const asText = { ...args, evalCase: JSON.stringify(line.eval_case), actual: JSON.stringify(line.actual_invocations) };
        same(await api.evaluateInvocations(asText), want, `${line.id} text`);
        compared++;
      }
    }
    assert.ok(compared > 400, `compared ${compared} results`);
  });

  test('a prepared case: rows equal the row form on every run, and later runs reuse the first run\'s invocations', () => {
    const lines = readJsonl(join(DATA, 'case_oracles.jsonl')).filter((l) => l.actual_invocations.length > 0).slice(0, 40);
    for (const line of lines) {
      for (const input of ['text', 'objects']) {
        const evalCase = input === 'text' ? JSON.stringify(line.eval_case) : line.eval_case;
        const actual = input === 'text' ? JSON.stringify(line.actual_invocations) : line.actual_invocations;
        let prepared;
        try {
          prepared = api.prepareCase({ evalCase, actual, evalSetId: 'cols' });
        } catch {
          continue;
        }
        const base = { evalCase: line.eval_case, actual: line.actual_invocations, evalSetId: 'cols' };
        const configs = [line.config, { criteria: { tool_trajectory_avg_score: 1.0 } }, line.config];
        const results = [];
        for (const [k, config] of configs.entries()) {
          const want = rows({ ...base, config });
          if (want.error) continue;
          const got = prepared.evaluate(config);
          same(got, want, `${line.id} ${input} run ${k}`);
          same(prepared.evaluate(config, { includeInvocations: false }), rows({ ...base, config, includeInvocations: false }), `${line.id} ${input} no invocations`);
          same(prepared.evaluate(config, { perInvocation: false }), rows({ ...base, config, perInvocation: false }), `${line.id} ${input} case level`);
          results.push(got);
        }
        if (results.length >= 2) {
          const [a, b] = results;
          assert.equal(a.eval_metric_result_per_invocation[0].actual_invocation, b.eval_metric_result_per_invocation[0].actual_invocation,
            `${line.id} ${input}: one parsed invocation object shared by both runs`);
        }
        prepared.free();
      }
    }
  });

  test('objects in: rows hold the caller\'s own invocations where the core\'s parse reads the same, normalised copies elsewhere', async () => {
    const turn = (id, text, extra = {}) => ({
      invocation_id: id,
      user_content: { role: 'user', parts: [{ text: 'q' }] },
      final_response: { role: 'model', parts: [{ text }] },
      ...extra,
    });
    // The actual invocations as the core writes them (every field, numbers that read the same);
    // the expected ones lack defaults the model fills in (intermediate_data's lists).
    const canonical = (await api.evaluateInvocations({
      evalCase: { eval_id: 'x', conversation: [turn('e', 'a b')] }, actual: [turn('a', 'a b', { creation_timestamp: 1763800000.0 })],
    })).eval_metric_result_per_invocation[0].actual_invocation;
    const actual = [structuredClone(canonical), { ...structuredClone(canonical), invocation_id: 'a2' }];
    const evalCase = { eval_id: 'c', conversation: [turn('e1', 'a b', { intermediate_data: { tool_uses: [] } }), turn('e2', 'a c')] };
    const args = { evalCase, actual, evalSetId: 'cols' };
    const got = await api.evaluateInvocations(args);
    same(got, rows(args));
    const perInv = got.eval_metric_result_per_invocation;
    assert.equal(perInv[0].actual_invocation, actual[0], 'the caller\'s object itself');
    assert.equal(perInv[1].actual_invocation, actual[1]);
    assert.notEqual(perInv[0].expected_invocation, evalCase.conversation[0], 'a normalised copy');
    assert.deepEqual(perInv[0].expected_invocation.intermediate_data.tool_responses, []);
    // One field the model writes otherwise (a camelCase key, another key order): a copy.
    for (const change of [
      (inv) => { inv.invocationId = inv.invocation_id; delete inv.invocation_id; },
      (inv) => { const { invocation_id, ...rest } = inv; Object.keys(inv).forEach((k) => delete inv[k]); Object.assign(inv, rest, { invocation_id }); },
    ]) {
      const changed = structuredClone(actual);
      change(changed[1]);
      const r = await api.evaluateInvocations({ ...args, actual: changed });
      same(r, rows({ ...args, actual: changed }));
      assert.notEqual(r.eval_metric_result_per_invocation[1].actual_invocation, changed[1]);
      assert.notEqual(r.eval_metric_result_per_invocation[0].actual_invocation, changed[0], 'the list is echoed whole');
    }
    // Text input: no objects to refer to; the same values, in copies.
    const text = await api.evaluateInvocations({ ...args, actual: JSON.stringify(actual) });
    same(text, got);
    assert.notEqual(text.eval_metric_result_per_invocation[0].actual_invocation, actual[0]);
  });

  test('details that are not empty (trajectory explanations, token usage) come through', async () => {
    const inv = (id, calls, tokens) => ({
      invocation_id: id,
      user_content: { role: 'user', parts: [{ text: 'q' }] },
      final_response: { role: 'model', parts: [{ text: 'a' }] },
      intermediate_data: {
        invocation_events: [{ author: 'a', content: { role: 'model', parts: calls.map((name) => ({ function_call: { name, args: { x: 1 } } })) }, usage_metadata: { prompt_token_count: tokens, candidates_token_count: 3, total_token_count: tokens + 3 } }],
      },
    });
    const evalCase = { eval_id: 'd', conversation: [inv('e1', ['a', 'b'], 0), inv('e2', ['c'], 0)] };
    const actual = [inv('a1', ['b'], 11), inv('a2', ['c'], 12)];
    const args = { evalCase, actual, config: { criteria: { tool_trajectory_avg_score: 1.0 } } };
    const got = await api.evaluateInvocations(args);
    same(got, rows(args));
    const traj = got.eval_metric_result_per_invocation[0].eval_metric_results.find((m) => m.metric_name === 'tool_trajectory_avg_score');
    assert.equal(traj.eval_status, 'FAILED');
    assert.ok(traj.details.trajectory.lines.length > 0);
    const tokens = got.eval_metric_result_per_invocation[1].eval_metric_results.find((m) => m.metric_name === 'token_usage_v1');
    assert.equal(tokens.details.token_usage_details.input_tokens, 12);
    // explain: false leaves the explanation out and changes nothing else.
    const quiet = await api.evaluateInvocations({ ...args, explain: false });
    same(quiet, rows({ ...args, explain: false }));
    const q = quiet.eval_metric_result_per_invocation[0].eval_metric_results[0];
    assert.equal(q.details.trajectory, undefined);
    assert.equal(q.score, traj.score);
    const prepared = api.prepareCase({ evalCase, actual });
    assert.equal(prepared.evaluate(args.config, { explain: false }).eval_metric_result_per_invocation[0].eval_metric_results[0].details.trajectory, undefined);
    assert.ok(prepared.evaluate(args.config).eval_metric_result_per_invocation[0].eval_metric_results[0].details.trajectory.lines.length > 0);
    prepared.free();
    // Two results never share a details object.
    const [p0, p1] = got.eval_metric_result_per_invocation;
    assert.notEqual(p0.eval_metric_results[1].details, p1.eval_metric_results[1].details);
  });
});
