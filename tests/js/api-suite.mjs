// The API smoke suite, registered once per entry point (Node entry, web entry via init and via
// initSync): every public function, the error class, and "an error never breaks the module".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MINIMAL_SET, actualFor, clone } from './helpers.mjs';

/** Asserts `fn` throws an EvalError with `code` (and a path matching `path` when given). */
export function assertEvalError(api, fn, code, path) {
  let thrown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  checkEvalError(api, thrown, code, path);
  return thrown;
}

export async function assertRejectsEvalError(api, promiseOrFn, code, path) {
  let thrown;
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
  } catch (e) {
    thrown = e;
  }
  checkEvalError(api, thrown, code, path);
  return thrown;
}

export function checkEvalError(api, e, code, path) {
  assert.ok(e !== undefined, `expected an EvalError(${code}), nothing was thrown`);
  assert.ok(e instanceof api.EvalError, `expected an EvalError, got ${e && e.constructor && e.constructor.name}: ${e}`);
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'EvalError');
  assert.equal(typeof e.code, 'string');
  assert.equal(typeof e.path, 'string');
  assert.equal(typeof e.message, 'string');
  assert.ok(e.message.length > 0, 'message is empty');
  if (code !== undefined) {
    const codes = Array.isArray(code) ? code : [code];
    assert.ok(codes.includes(e.code), `code: expected ${codes.join(' or ')}, got ${e.code} (path ${JSON.stringify(e.path)}: ${e.message})`);
  }
  if (path !== undefined) {
    const ok = path instanceof RegExp ? path.test(e.path) : e.path === path;
    assert.ok(ok, `path: expected ${path}, got ${JSON.stringify(e.path)} (${e.code}: ${e.message})`);
  }
}

/** The module answers normally: used after every error. */
export function assertHealthy(api) {
  assert.deepEqual(api.rouge1('the cat sat on the mat', 'the cat sat on the mat'), { precision: 1, recall: 1, fmeasure: 1 });
  assert.equal(api.loadEvalSet(MINIMAL_SET).eval_cases[0].eval_id, 'case_1');
}

export function apiSuite(api, label) {
  test(`${label}: coreVersion`, () => {
    assert.match(api.coreVersion(), /^\d+\.\d+\.\d+/);
  });

  test(`${label}: EvalError is an exported Error subclass`, () => {
    const e = new api.EvalError('schema', '$.x', 'expected a string, found 5');
    assert.ok(e instanceof Error);
    assert.ok(e instanceof api.EvalError);
    assert.equal(e.name, 'EvalError');
    assert.equal(e.code, 'schema');
    assert.equal(e.path, '$.x');
    assert.equal(e.message, 'expected a string, found 5');
    assert.deepEqual(JSON.parse(JSON.stringify(e)), { code: 'schema', path: '$.x', message: 'expected a string, found 5' });
    assert.match(String(e), /^EvalError: expected a string/);
  });

  test(`${label}: rouge1`, () => {
    const r = api.rouge1('The cats are sitting', 'the cat sat');
    assert.deepEqual(Object.keys(r), ['precision', 'recall', 'fmeasure']);
    for (const v of Object.values(r)) assert.equal(typeof v, 'number');
    assert.deepEqual(api.rouge1('', ''), { precision: 0, recall: 0, fmeasure: 0 });
    assert.deepEqual(api.rouge1('hello world', 'hello world'), { precision: 1, recall: 1, fmeasure: 1 });
    assertEvalError(api, () => api.rouge1(5, 'x'), 'schema');
    assertEvalError(api, () => api.rouge1('x'), 'schema');
    assertHealthy(api);
  });

  test(`${label}: loadEvalSet from an object, JSON text and bytes`, () => {
    const fromObject = api.loadEvalSet(MINIMAL_SET);
    assert.equal(fromObject.eval_set_id, 'simple');
    assert.equal(fromObject.eval_cases.length, 1);
    assert.equal(fromObject.eval_cases[0].eval_id, 'case_1');
    assert.equal(fromObject.eval_cases[0].conversation[0].user_content.parts[0].text, 'What is the weather in Paris?');
    const text = JSON.stringify(MINIMAL_SET);
    assert.deepEqual(api.loadEvalSet(text), fromObject);
    assert.deepEqual(api.loadEvalSet(new TextEncoder().encode(text)), fromObject);
    assert.deepEqual(api.loadEvalSet(new TextEncoder().encode('\uFEFF' + text).buffer), fromObject);
    // Bytes go to the core as they are; validation and its paths are the same as for text.
    const broken = JSON.stringify({ eval_set_id: 1, eval_cases: [{ eval_id: 'é', conversation: [{}] }] });
    const fromText = api.validateEvalSet(broken);
    const fromBytes = api.validateEvalSet(new TextEncoder().encode(broken));
    assert.equal(fromBytes.ok, false);
    assert.deepEqual(fromBytes.errors.map((e) => [e.code, e.path]), fromText.errors.map((e) => [e.code, e.path]));
    assert.deepEqual(api.validateEvalSet(new TextEncoder().encode(text)), { ok: true, errors: [] });
    const notUtf8 = api.validateEvalSet(new Uint8Array([0x7b, 0xff, 0x7d]));
    assert.equal(notUtf8.errors[0].code, 'invalid_json');
  });

  test(`${label}: loadEvalSet accepts camelCase below the set and returns snake_case`, () => {
    const camel = {
      eval_set_id: 'camel',
      eval_cases: [{
        evalId: 'c1',
        conversation: [{
          invocationId: 'i1',
          userContent: { role: 'user', parts: [{ text: 'hi' }] },
          finalResponse: { role: 'model', parts: [{ text: 'hello' }] },
        }],
      }],
    };
    const set = api.loadEvalSet(camel);
    assert.equal(set.eval_cases[0].eval_id, 'c1');
    const inv = set.eval_cases[0].conversation[0];
    assert.equal(inv.user_content.parts[0].text, 'hi');
    assert.equal(inv.final_response.parts[0].text, 'hello');
    assert.equal(inv.userContent, undefined);
  });

  test(`${label}: loadEvalSet migrates a legacy test file deterministically`, () => {
    const legacy = [
      { query: 'What is 2+2?', expected_tool_use: [{ tool_name: 'calc', tool_input: { expr: '2+2' } }], reference: '4' },
      { query: 'Thanks', expected_tool_use: [], reference: 'You are welcome.' },
    ];
    const a = api.loadEvalSet(legacy, { id: 'legacy_set' });
    const b = api.loadEvalSet(JSON.stringify(legacy), { id: 'legacy_set' });
    assert.deepEqual(a, b);
    assert.ok(a.eval_cases.length >= 1);
    for (const c of a.eval_cases) assert.equal(typeof c.eval_id, 'string');
  });

  test(`${label}: loadEvalSet errors are EvalErrors with code, path and message`, () => {
    const e = assertEvalError(api, () => api.loadEvalSet('{'), 'invalid_json');
    assert.equal(e.path, '');
    const bad = clone(MINIMAL_SET);
    bad.eval_cases[0].eval_id = 5;
    assertEvalError(api, () => api.loadEvalSet(bad), 'schema', /eval_cases\[0\]/);
    const dup = clone(MINIMAL_SET);
    dup.eval_cases.push(clone(dup.eval_cases[0]));
    assertEvalError(api, () => api.loadEvalSet(dup), 'duplicate_id', /eval_cases\[1\]/);
    assertHealthy(api);
  });

  test(`${label}: validateEvalSet reports every problem, never throws for bad data`, () => {
    assert.deepEqual(api.validateEvalSet(MINIMAL_SET), { ok: true, errors: [] });
    const bad = clone(MINIMAL_SET);
    bad.eval_cases.push({ eval_id: 7, conversation: [] }, { eval_id: 'case_1', conversation: [{}] });
    const r = api.validateEvalSet(bad);
    assert.equal(r.ok, false);
    assert.ok(r.errors.length >= 2, `expected several errors, got ${JSON.stringify(r.errors)}`);
    for (const e of r.errors) checkEvalError(api, e);
    assert.ok(r.errors.every((e) => e.path.startsWith('$')), JSON.stringify(r.errors));
    const malformed = api.validateEvalSet('{"eval_set_id": ');
    assert.equal(malformed.ok, false);
    checkEvalError(api, malformed.errors[0], 'invalid_json');
    const cyclic = {};
    cyclic.self = cyclic;
    checkEvalError(api, api.validateEvalSet(cyclic).errors[0], 'invalid_json');
    assertHealthy(api);
  });

  test(`${label}: loadEvalConfig`, () => {
    const defaults = api.loadEvalConfig();
    assert.equal(defaults.criteria.tool_trajectory_avg_score.threshold, 1);
    assert.equal(defaults.criteria.response_match_score.threshold, 0.8);
    assert.deepEqual(api.loadEvalConfig(null), defaults);
    const cfg = api.loadEvalConfig({ criteria: { response_match_score: 0.5, tool_trajectory_avg_score: { threshold: 1, match_type: 'IN_ORDER' } } });
    assert.deepEqual(Object.keys(cfg.criteria), ['response_match_score', 'tool_trajectory_avg_score']);
    assert.equal(cfg.criteria.response_match_score.threshold, 0.5);
    assert.equal(cfg.criteria.tool_trajectory_avg_score.threshold, 1);
    assert.deepEqual(api.loadEvalConfig('{"criteria": {"response_match_score": 0.5}}').criteria.response_match_score.threshold, 0.5);
    assertEvalError(api, () => api.loadEvalConfig({ criteria: { response_match_score: { match_type: 'EXACT' } } }), 'schema', /criteria/);
    assertEvalError(api, () => api.loadEvalConfig('{"criteria": '), 'invalid_json');
    // A threshold of -0.0 keeps its sign from a JS object too (JSON.stringify alone drops it).
    assert.ok(Object.is(api.loadEvalConfig({ criteria: { response_match_score: -0 } }).criteria.response_match_score.threshold, -0));
    assert.ok(Object.is(api.loadEvalConfig({ criteria: { response_match_score: { threshold: -0 } } }).criteria.response_match_score.threshold, -0));
    assert.ok(Object.is(api.loadEvalConfig({ criteria: { response_match_score: 0 } }).criteria.response_match_score.threshold, 0));
    assertHealthy(api);
  });

  test(`${label}: evaluateInvocations scores a case and returns a Promise`, async () => {
    const pending = api.evaluateInvocations({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), evalSetId: 'simple' });
    assert.ok(pending instanceof Promise);
    const r = await pending;
    assert.equal(r.eval_set_id, 'simple');
    assert.equal(r.eval_id, 'case_1');
    assert.equal(r.final_eval_status, 'PASSED');
    const names = r.overall_eval_metric_results.map((m) => m.metric_name);
    assert.deepEqual(names.slice(0, 2), ['tool_trajectory_avg_score', 'response_match_score']);
    for (const m of r.overall_eval_metric_results) {
      assert.ok(['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL'].includes(m.eval_status), m.eval_status);
    }
    assert.equal(r.eval_metric_result_per_invocation.length, 1);
    assert.equal(r.overall_eval_metric_results[0].score, 1);
  });

  test(`${label}: evaluateInvocations takes JSON text as well as objects, and a config`, async () => {
    const evalCase = MINIMAL_SET.eval_cases[0];
    const actual = actualFor('It is raining in Paris.', []);
    const config = { criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.99 } };
    const a = await api.evaluateInvocations({ evalCase, actual, config, evalSetId: 's' });
    const b = await api.evaluateInvocations({ evalCase: JSON.stringify(evalCase), actual: JSON.stringify(actual), config: JSON.stringify(config), evalSetId: 's' });
    assert.deepEqual(a, b);
    assert.equal(a.final_eval_status, 'FAILED');
    assert.equal(a.overall_eval_metric_results[0].score, 0);
    assert.equal(a.overall_eval_metric_results[1].threshold, 0.99);
    // A judge is accepted (LLM-judged metrics arrive later); deterministic metrics ignore it.
    const withJudge = await api.evaluateInvocations({ evalCase, actual, config, evalSetId: 's', judge: { provider: 'gemini', model: 'gemini-2.5-flash' } });
    assert.deepEqual(withJudge, a);
  });

  test(`${label}: evaluateInvocations includeInvocations`, async () => {
    const r = await api.evaluateInvocations({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), includeInvocations: true });
    const per = r.eval_metric_result_per_invocation[0];
    assert.equal(per.actual_invocation.invocation_id, 'a-1');
    assert.equal(per.expected_invocation.invocation_id, 'e-1');
  });

  test(`${label}: evaluateInvocations rejects (never throws synchronously) with EvalError`, async () => {
    const twoTurns = clone(MINIMAL_SET.eval_cases[0]);
    twoTurns.conversation.push(clone(twoTurns.conversation[0]));
    let pending;
    assert.doesNotThrow(() => { pending = api.evaluateInvocations({ evalCase: twoTurns, actual: actualFor() }); });
    await assertRejectsEvalError(api, pending, 'count_mismatch');
    await assertRejectsEvalError(api, () => api.evaluateInvocations({ evalCase: '{', actual: [] }), 'invalid_json');
    await assertRejectsEvalError(api, () => api.evaluateInvocations(null), 'schema');
    assertHealthy(api);
  });

  test(`${label}: prepareCase evaluates under several configs`, async () => {
    const evalCase = MINIMAL_SET.eval_cases[0];
    const actual = actualFor('It is sunny in Paris today.');
    const prepared = api.prepareCase({ evalCase, actual, evalSetId: 'simple' });
    try {
      const byDefault = prepared.evaluate();
      assert.deepEqual(byDefault, await api.evaluateInvocations({ evalCase, actual, evalSetId: 'simple' }));
      const strict = { criteria: { response_match_score: 1.0 } };
      const r = prepared.evaluate(strict);
      assert.equal(r.overall_eval_metric_results[0].metric_name, 'response_match_score');
      assert.equal(r.final_eval_status, 'FAILED');
      assert.deepEqual(r, await api.evaluateInvocations({ evalCase, actual, config: strict, evalSetId: 'simple' }));
      assert.deepEqual(prepared.evaluate(JSON.stringify(strict)), r);
      const withInv = prepared.evaluate(null, { includeInvocations: true });
      assert.equal(withInv.eval_metric_result_per_invocation[0].actual_invocation.invocation_id, 'a-1');
      const summaryOnly = prepared.evaluate(strict, { perInvocation: false });
      assert.equal('eval_metric_result_per_invocation' in summaryOnly, false);
      assert.deepEqual(summaryOnly.overall_eval_metric_results, r.overall_eval_metric_results);
      const scoresOnly = prepared.evaluate(strict, { includeInvocations: false });
      assert.equal('actual_invocation' in scoresOnly.eval_metric_result_per_invocation[0], false);
      assert.deepEqual(scoresOnly.eval_metric_result_per_invocation[0].eval_metric_results,
        r.eval_metric_result_per_invocation[0].eval_metric_results);
      const viaArgs = await api.evaluateInvocations({ evalCase, actual, config: strict, perInvocation: false });
      assert.equal('eval_metric_result_per_invocation' in viaArgs, false);
      const noEfficiency = prepared.evaluate(strict, { efficiencyMetrics: false });
      assert.deepEqual(noEfficiency.overall_eval_metric_results.map((m) => m.metric_name), ['response_match_score']);
      assert.equal(r.overall_eval_metric_results.length, 5, 'efficiency metrics are on by default');
      assertEvalError(api, () => prepared.evaluate('{"criteria": 5}'), 'schema');
      assert.equal(prepared.evaluate().final_eval_status, byDefault.final_eval_status);
    } finally {
      prepared.free();
    }
    prepared.free(); // idempotent
    assert.throws(() => prepared.evaluate(), /freed/);
    assertHealthy(api);
  });

  test(`${label}: rouge1Batch equals rouge1 pair by pair`, () => {
    const pairs = [['The cats are running quickly', 'A cat runs quick'], ['', ''], ['東京は晴れです', '東京は雨です']];
    const b = api.rouge1Batch(pairs);
    assert.ok(b.fmeasure instanceof Float64Array);
    pairs.forEach(([c, r], i) => {
      const one = api.rouge1(c, r);
      assert.ok(Object.is(b.precision[i], one.precision) && Object.is(b.recall[i], one.recall)
        && Object.is(b.fmeasure[i], one.fmeasure), `pair ${i}`);
    });
    assert.equal(api.rouge1Batch([]).fmeasure.length, 0);
    assertEvalError(api, () => api.rouge1Batch([['a']]), 'schema');
    assertEvalError(api, () => api.rouge1Batch('a'), 'schema');
    assertHealthy(api);
  });

  test(`${label}: prepareCase errors are EvalErrors, not strings`, () => {
    assertEvalError(api, () => api.prepareCase({ evalCase: '{"eval_id": ', actual: [] }), 'invalid_json');
    assertEvalError(api, () => api.prepareCase({ evalCase: { eval_id: 'x', conversation: 'nope' }, actual: [] }), 'schema', /conversation/);
    assertHealthy(api);
  });

  test(`${label}: formatReport`, async () => {
    const passed = await api.evaluateInvocations({ evalCase: MINIMAL_SET.eval_cases[0], actual: actualFor(), evalSetId: 'simple' });
    const failed = await api.evaluateInvocations({ evalCase: { ...clone(MINIMAL_SET.eval_cases[0]), eval_id: 'case_2' }, actual: actualFor('No idea.', []), evalSetId: 'simple' });
    const summary = api.formatReport([passed, failed]);
    assert.equal(typeof summary, 'string');
    assert.ok(summary.length > 0);
    assert.equal(api.formatReport({ eval_case_results: [passed, failed] }), summary);
    const detailed = api.formatReport([passed, failed], { detailed: true });
    assert.ok(detailed.length > summary.length, 'detailed output should add to the summary');
    assertEvalError(api, () => api.formatReport('{'), 'invalid_json');
    assertHealthy(api);
  });
}
