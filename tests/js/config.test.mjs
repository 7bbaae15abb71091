// Configs are checked once, at load, with paths (issue 8): validateEvalConfig's errors and
// warnings, strict loading, and the typed criteria a run scores with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { MINIMAL_SET, actualFor } from './helpers.mjs';

const paths = (list) => list.map((e) => e.path);

test('validateEvalConfig: a clean config, and no config at all', () => {
  assert.deepEqual(api.validateEvalConfig({ criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.8 } }), { ok: true, errors: [], warnings: [] });
  assert.deepEqual(api.validateEvalConfig(), { ok: true, errors: [], warnings: [] });
  assert.deepEqual(api.validateEvalConfig(null, { strict: true }), { ok: true, errors: [], warnings: [] });
});

test('validateEvalConfig: the usual mistakes are warnings with paths and suggestions', () => {
  const r = api.validateEvalConfig({
    criterias: {},
    criteria: {
      respone_match_score: 0.8,
      final_response_match_v2: { threshold: 0.5, num_samples: 3 },
      tool_trajectory_avg_score: { threshold: 1, match_type: 'INORDER' },
    },
  });
  assert.equal(r.ok, true, 'ADK loads this file');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(paths(r.warnings), [
    '$.criterias',
    '$.criteria.respone_match_score',
    '$.criteria.final_response_match_v2.num_samples',
    '$.criteria.tool_trajectory_avg_score.match_type',
  ]);
  for (const w of r.warnings) assert.ok(w instanceof api.EvalError);
  assert.match(r.warnings[1].message, /did you mean "response_match_score"\?/);
  assert.match(r.warnings[2].message, /judge_model_options/);
  const strict = api.validateEvalConfig({ criteria: { respone_match_score: 0.8 } }, { strict: true });
  assert.equal(strict.ok, false);
  assert.deepEqual(paths(strict.errors), ['$.criteria.respone_match_score']);
});

test('validateEvalConfig: what ADK rejects is an error; bad input never throws', () => {
  const r = api.validateEvalConfig({ criteria: {}, user_simulator_config: { type: 'llm_video' } });
  assert.equal(r.ok, false);
  assert.deepEqual(paths(r.errors), ['$.user_simulator_config']);
  // ADK 2.13's audio simulator loads (its cases are NOT_EVALUATED when run: run-simulator.test.mjs).
  const audio = api.validateEvalConfig({ criteria: {}, user_simulator_config: { type: 'llm_audio', audio_model: 'cloud_tts', include_text_with_audio: false } });
  assert.equal(audio.ok, true);
  assert.deepEqual(audio.warnings, []);
  assert.deepEqual(paths(api.validateEvalConfig({ criteria: {}, user_simulator_config: { type: 'llm_audio', audio_model_configuration: 'x' } }).errors), ['$.user_simulator_config']);
  assert.equal(api.validateEvalConfig('{').errors[0].code, 'invalid_json');
  assert.equal(api.validateEvalConfig({ criteria: { a: { match_type: 'EXACT' } } }).errors[0].path, '$.criteria.a');
  assert.equal(api.validateEvalConfig({}, 'strict').errors[0].path, '$options');
});

test('loadEvalConfig: warnings load unless strict, and strict lists every one', () => {
  const cfg = { criteria: { tool_trajectory_avg_score: { threshold: 1, ignoreArg: true }, respone_match_score: 0.8 } };
  assert.equal(api.loadEvalConfig(cfg).criteria.tool_trajectory_avg_score.threshold, 1);
  assert.throws(() => api.loadEvalConfig(cfg, { strict: true }), (e) => e instanceof api.EvalError
    && e.path === '$.criteria.tool_trajectory_avg_score.ignoreArg'
    && /2 problems/.test(e.message) && /respone_match_score/.test(e.message));
  assert.throws(() => api.loadEvalConfig({ criteria: {}, userSimulatorConfig: { type: 'x' } }), (e) => e.path === '$.user_simulator_config');
});

test('an invalid criterion value is NOT_EVALUATED with the load-time message and path', async () => {
  const res = await api.evaluateInvocations({
    evalCase: MINIMAL_SET.eval_cases[0],
    actual: actualFor(),
    config: { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 'INORDER' }, response_match_score: 0.5 } },
  });
  const t = res.overall_eval_metric_results[0];
  assert.equal(t.eval_status, 'NOT_EVALUATED');
  assert.equal(t.details.reason, 'invalid_criterion');
  assert.match(t.details.error, /match_type/);
  assert.equal(res.overall_eval_metric_results[1].eval_status, 'PASSED');
  assert.equal(res.final_eval_status, 'PASSED');
});

test('arg_policies round trip: kept as written, typed at load, a bad policy is an error with its path', async () => {
  const policies = { '*': { request_id: 'ignore' }, search: { query: { policy: 'rouge1', threshold: 0.5 } }, book: 'subset' };
  const cfg = { criteria: { tool_trajectory_avg_score: { threshold: 1, match_type: 'SUBSET', argPolicies: policies },
    tool_parameter_match: 0.5, tool_trajectory_f1: { threshold: 0.5, alignment: 'ordered' } } };
  assert.deepEqual(api.validateEvalConfig(cfg), { ok: true, errors: [], warnings: [] });
  const loaded = api.loadEvalConfig(cfg);
  assert.deepEqual(loaded.criteria.tool_trajectory_avg_score.argPolicies, policies);
  assert.equal(loaded.criteria.tool_trajectory_avg_score.match_type, 'SUBSET');
  assert.deepEqual(api.loadEvalConfig(JSON.stringify(loaded)), loaded);
  const bad = { criteria: { tool_trajectory_avg_score: { threshold: 1, arg_policies: { search: { date: { policy: 'regex', pattern: '[' } } } } } };
  const out = api.validateEvalConfig(bad);
  assert.equal(out.ok, false);
  assert.equal(out.errors[0].path, '$.criteria.tool_trajectory_avg_score.arg_policies.search.date.pattern');
  assert.match(out.errors[0].message, /does not compile/);
  assert.throws(() => api.loadEvalConfig(bad), (e) => e instanceof api.EvalError && e.path === out.errors[0].path);
  // In a run the metric is NOT_EVALUATED with the same message; the rest is scored.
  const res = await api.evaluateInvocations({
    evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(),
    config: { criteria: { ...bad.criteria, response_match_score: 0.5 } },
  });
  const t = res.overall_eval_metric_results[0];
  assert.equal(t.eval_status, 'NOT_EVALUATED');
  assert.match(t.details.error, /arg_policies\.search\.date.*does not compile/);
  assert.equal(res.overall_eval_metric_results[1].eval_status, 'PASSED');
});

test("live_model_config is read as ADK's LiveModelConfig: camelCase alias, lax integer, default 300 (issue 10)", () => {
  assert.deepEqual(api.loadEvalConfig({ criteria: {}, live_model_config: { timeoutSeconds: 60 } }).live_model_config, { timeout_seconds: 60 });
  assert.deepEqual(api.loadEvalConfig({ criteria: {}, liveModelConfig: { timeout_seconds: '45' } }).live_model_config, { timeout_seconds: 45 });
  assert.deepEqual(api.loadEvalConfig({ criteria: {}, liveModelConfig: {} }).live_model_config, { timeout_seconds: 300 });
  assert.equal(api.loadEvalConfig({ criteria: {} }).live_model_config, undefined);
  // What pydantic rejects is an error at its path; a key it ignores is a warning.
  assert.throws(() => api.loadEvalConfig({ criteria: {}, liveModelConfig: { timeoutSeconds: 'soon' } }),
    (e) => e instanceof api.EvalError && e.path === '$.live_model_config.timeoutSeconds' && /whole number of seconds/.test(e.message));
  const r = api.validateEvalConfig({ criteria: {}, live_model_config: { timeout: 60, timeoutSecond: 5 } });
  assert.equal(r.ok, true);
  assert.deepEqual(paths(r.warnings), ['$.live_model_config.timeout', '$.live_model_config.timeoutSecond']);
  assert.match(r.warnings[0].message, /ADK ignores `timeout` in live_model_config \(it reads only timeout_seconds\)/);
  assert.match(r.warnings[1].message, /did you mean "timeout_seconds"/);
  assert.equal(api.validateEvalConfig({ criteria: {}, live_model_config: { timeout: 60 } }, { strict: true }).ok, false);
});

test('user_simulator_config with an unknown type is rejected where ADK rejects the config (issue 10)', async () => {
  for (const type of ['llm', 'LLM_BACKED', 'scripted']) {
    const r = api.validateEvalConfig({ criteria: {}, user_simulator_config: { type, max_allowed_invocations: 3 } });
    assert.equal(r.ok, false, type);
    assert.deepEqual(paths(r.errors), ['$.user_simulator_config'], type);
    assert.match(r.errors[0].message, new RegExp(`"${type}" is not supported`), type);
    assert.throws(() => api.loadEvalConfig({ criteria: {}, user_simulator_config: { type } }), (e) => e.path === '$.user_simulator_config');
  }
  // AgentEvaluator loads its config as ADK does: the run never starts.
  const { AgentEvaluator } = await import('../../pkg/lib/testing/agent_evaluator.js');
  let ran = false;
  await assert.rejects(AgentEvaluator.evaluateEvalSet(async () => { ran = true; return 'x'; }, MINIMAL_SET,
    { numRuns: 1, config: { criteria: { response_match_score: 0.5 }, user_simulator_config: { type: 'scripted' } } }),
  (e) => e instanceof api.EvalError && e.path === '$.user_simulator_config' && /"scripted" is not supported/.test(e.message));
  assert.equal(ran, false);
  // No type, and the one text type, load (ADK reads a config without `type` as llm_backed).
  assert.equal(api.validateEvalConfig({ criteria: {}, user_simulator_config: { max_allowed_invocations: 3 } }).ok, true);
  assert.equal(api.validateEvalConfig({ criteria: {}, userSimulatorConfig: { type: 'llm_backed' } }).ok, true);
});
