// ADK result files (SPEC §4.7/§4.8): written byte for byte as google-adk 2.13 writes them, read in
// every shape ADK has written (2.x plain, 1.x double-encoded, camelCase, int or string statuses).
// tools/adk-results/hello_world.adk-2.13.evalset_result.json is a file ADK itself wrote for the
// hello_world example (tools/adk-results/make_fixture.py).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EvalError, evaluateInvocations, loadEvalConfig, loadEvalSet } from '../../pkg/index.js';
import {
  createEvalSetResult, evalHistoryDir, formatEvalSetResult, listEvalSetResults, readEvalSetResult,
  readEvalSetResultFile, saveEvalSetResult, statusCode, statusName, validatePathSegment, writeEvalSetResult,
} from '../../pkg/lib/node/history.js';
import { pythonFloat } from '../../pkg/lib/wasm/adk_text.js';
import { ROOT } from './helpers.mjs';

const ADK_FILE = join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json');
const ADK_TEXT = readFileSync(ADK_FILE, 'utf8');
const EXAMPLE = join(ROOT, 'examples', 'hello_world');
const work = mkdtempSync(join(tmpdir(), 'evalcore-history-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** evalcore's own results for the hello_world example, scored from the recorded turns. */
async function helloWorldResults() {
  const set = loadEvalSet(readFileSync(join(EXAMPLE, 'hello_world.evalset.json')));
  const config = loadEvalConfig(readFileSync(join(EXAMPLE, 'test_config.json'), 'utf8'));
  const recorded = JSON.parse(readFileSync(join(EXAMPLE, 'recorded_turns.json'), 'utf8'));
  const out = [];
  for (const evalCase of set.eval_cases) {
    out.push(await evaluateInvocations({ evalCase, actual: recorded[evalCase.eval_id], config, evalSetId: set.eval_set_id }));
  }
  return out;
}

/** A float as the core writes it into ADK's result files (a metric result's `score`). */
function pydanticFloat(x) {
  const text = formatEvalSetResult({
    eval_set_result_id: 'x', eval_set_id: 's',
    eval_case_results: [{ eval_id: 'c', final_eval_status: 'PASSED', session_id: '', eval_metric_result_per_invocation: [],
      overall_eval_metric_results: [{ metric_name: 'm', eval_status: 'PASSED', score: x }] }],
  });
  return /"score": ([^,\n]+),/.exec(text)[1];
}

describe('writing as ADK 2.13 writes', () => {
  test("a file ADK wrote reads and writes back to the same bytes", () => {
    const result = readEvalSetResult(ADK_TEXT);
    assert.deepEqual(result.eval_case_results.map((r) => r.final_eval_status), ['PASSED', 'PASSED', 'PASSED', 'FAILED']);
    assert.equal(result.eval_case_results[0].overall_eval_metric_results[2].eval_status, 'INFORMATIONAL');
    assert.equal(formatEvalSetResult(result), ADK_TEXT);
  });

  test("evalcore's results of the same data give ADK's file (every field, nulls, Python floats, int statuses)", async () => {
    const adk = JSON.parse(ADK_TEXT);
    // ADK's file came from recorded inferences with session id "recorded"; the rest is scoring.
    const cases = (await helloWorldResults()).map((r) => ({ ...r, session_id: 'recorded' }));
    const ours = createEvalSetResult('hello_world', 'hello_world', cases, { timestamp: adk.creation_timestamp });
    assert.equal(ours.eval_set_result_id, adk.eval_set_result_id, 'id = <app>_<set>_<repr(time.time())>');
    const text = formatEvalSetResult(ours);
    if (text !== ADK_TEXT) {
      const a = text.split('\n');
      const b = ADK_TEXT.split('\n');
      const i = a.findIndex((line, k) => line !== b[k]);
      assert.fail(`first difference at line ${i + 1}:\n  ours: ${a[i]}\n  ADK:  ${b[i]}`);
    }
  });

  test('statuses are written as integers, names read back', () => {
    const text = formatEvalSetResult({
      eval_set_result_id: 'x', eval_set_id: 's',
      eval_case_results: ['PASSED', 'FAILED', 'NOT_EVALUATED'].map((s, i) => ({
        eval_id: `c${i}`, final_eval_status: s, session_id: '',
        overall_eval_metric_results: [{ metric_name: 'm', eval_status: i === 0 ? 'INFORMATIONAL' : s, score: 1 }],
        eval_metric_result_per_invocation: [],
      })),
    });
    const raw = JSON.parse(text);
    assert.deepEqual(raw.eval_case_results.map((r) => r.final_eval_status), [1, 2, 3]);
    assert.deepEqual(raw.eval_case_results.map((r) => r.overall_eval_metric_results[0].eval_status), [4, 2, 3]);
    assert.match(text, /"score": 1\.0,/);
    assert.deepEqual(readEvalSetResult(text).eval_case_results.map((r) => r.final_eval_status), ['PASSED', 'FAILED', 'NOT_EVALUATED']);
  });

  test('every field ADK writes is present, nulls included', () => {
    const raw = JSON.parse(formatEvalSetResult({
      eval_set_result_id: 'x', eval_set_id: 's',
      eval_case_results: [{ eval_set_id: 's', eval_id: 'c', final_eval_status: 'PASSED', overall_eval_metric_results: [{ metric_name: 'm', eval_status: 'PASSED' }], eval_metric_result_per_invocation: [], session_id: 'sid' }],
    }));
    assert.deepEqual(Object.keys(raw), ['eval_set_result_id', 'eval_set_result_name', 'eval_set_id', 'eval_case_results', 'creation_timestamp']);
    const c = raw.eval_case_results[0];
    assert.deepEqual(Object.keys(c), ['eval_set_file', 'eval_set_id', 'eval_id', 'final_eval_status', 'eval_metric_results',
      'overall_eval_metric_results', 'eval_metric_result_per_invocation', 'session_id', 'session_details', 'user_id']);
    assert.equal(c.eval_metric_results, null);
    assert.equal(c.session_details, null);
    assert.equal(c.user_id, null);
    assert.deepEqual(c.overall_eval_metric_results[0], {
      metric_name: 'm', threshold: null, criterion: null, custom_function_path: null, score: null, eval_status: 1,
      details: { rubric_scores: null, token_usage_details: null, duration_details: null },
    });
    assert.equal(raw.creation_timestamp, 0);
  });

  test('evalcore extras: kept on case results (ADK ignores them), dropped where ADK forbids unknown keys', () => {
    const raw = JSON.parse(formatEvalSetResult({
      eval_set_result_id: 'x', eval_set_id: 's',
      eval_case_results: [{
        eval_id: 'c', final_eval_status: 'FAILED', session_id: '', run: 1, error: { code: 'agent_error', message: 'boom' },
        overall_eval_metric_results: [{ metric_name: 'm', eval_status: 'NOT_EVALUATED', details: { error: 'why', reason: 'needs_judge' } }],
        eval_metric_result_per_invocation: [],
      }],
    }));
    const c = raw.eval_case_results[0];
    assert.equal(c.run, 1);
    assert.deepEqual(c.error, { code: 'agent_error', message: 'boom' });
    assert.deepEqual(Object.keys(c.overall_eval_metric_results[0].details), ['rubric_scores', 'token_usage_details', 'duration_details']);
  });

  test('floats as pydantic writes them; the id time as Python repr', () => {
    for (const [x, want] of [[1, '1.0'], [0.5, '0.5'], [1e-5, '0.00001'], [1e-6, '1e-6'], [1.5e-6, '1.5e-6'], [1e-7, '1e-7'],
      [1e15, '1000000000000000.0'], [1e16, '1e+16'], [2.5e17, '2.5e+17'], [-0, '-0.0'], [NaN, 'null'], [Infinity, 'null'],
      [1763800003.1234567, '1763800003.1234567']]) {
      assert.equal(pydanticFloat(x), want, String(x));
    }
    for (const [x, want] of [[1795374173.368347, '1795374173.368347'], [1700000000, '1700000000.0'], [1e-5, '1e-05'], [1e16, '1e+16'], [0.0001, '0.0001']]) {
      assert.equal(pythonFloat(x), want, String(x));
    }
  });

  test('bytes are written in URL-safe base64, padded', () => {
    const raw = JSON.parse(formatEvalSetResult({
      eval_set_result_id: 'x', eval_set_id: 's',
      eval_case_results: [{
        eval_id: 'c', final_eval_status: 'PASSED', session_id: '', overall_eval_metric_results: [],
        eval_metric_result_per_invocation: [{
          actual_invocation: { user_content: { role: 'user', parts: [{ text: 'hi', thought_signature: 'a+b/cw' }] } },
          eval_metric_results: [],
        }],
      }],
    }));
    assert.equal(raw.eval_case_results[0].eval_metric_result_per_invocation[0].actual_invocation.user_content.parts[0].thought_signature, 'a-b_cw==');
  });
});

describe('saving into the eval history', () => {
  test("ADK's layout, id and name: <app dir>/.adk/eval_history/<app>_<set>_<time>.evalset_result.json", async () => {
    const cases = await helloWorldResults();
    const appDir = join(work, 'hello_world');
    const { path, result } = saveEvalSetResult({ appName: 'hello_world', evalSetId: 'hello_world', evalCaseResults: cases, appDir, timestamp: 1795374173.25 });
    assert.equal(result.eval_set_result_id, 'hello_world_hello_world_1795374173.25');
    assert.equal(path, join(evalHistoryDir(appDir), 'hello_world_hello_world_1795374173.25.evalset_result.json'));
    assert.ok(path.includes(join('.adk', 'eval_history')));
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith('{\n  "eval_set_result_id": "hello_world_hello_world_1795374173.25",\n'));
    assert.ok(!text.endsWith('\n'), 'ADK writes no trailing newline');
    assert.equal(JSON.parse(text).eval_case_results[0].eval_set_file, 'hello_world', 'eval_set_file = eval_set_id, as ADK sets it');
    const back = readEvalSetResultFile(path);
    assert.deepEqual(back.eval_case_results.map((r) => r.final_eval_status), cases.map((r) => r.final_eval_status));
    assert.deepEqual(listEvalSetResults(evalHistoryDir(appDir)), ['hello_world_hello_world_1795374173.25']);
  });

  test('the id uses the current time by default', () => {
    const before = Date.now() / 1000;
    const { result } = saveEvalSetResult({ appName: 'app', evalSetId: 'set', evalCaseResults: [], historyDir: join(work, 'h') });
    const m = /^app_set_(\d+\.\d+)$/.exec(result.eval_set_result_id);
    assert.ok(m, result.eval_set_result_id);
    assert.ok(Number(m[1]) >= before - 1 && Number(m[1]) <= Date.now() / 1000 + 1);
    assert.ok(existsSync(join(work, 'h', `${result.eval_set_result_name}.evalset_result.json`)));
  });

  test('names with "/" are sanitised in the file name, as ADK does', () => {
    const r = createEvalSetResult('my/app', 'set', [], { timestamp: 5 });
    assert.equal(r.eval_set_result_id, 'my/app_set_5.0');
    assert.equal(r.eval_set_result_name, 'my_app_set_5.0');
    assert.ok(writeEvalSetResult(r, join(work, 'w')).endsWith('my_app_set_5.0.evalset_result.json'));
  });

  test('app names and eval set ids must be single path segments (ADK 2.x)', () => {
    for (const bad of ['', 'a/b', 'a\\b', 'C:evil', '.', '..', 'a\0b']) {
      assert.throws(() => saveEvalSetResult({ appName: 'app', evalSetId: bad, evalCaseResults: [], historyDir: work }),
        (e) => e instanceof EvalError && e.code === 'invalid_path', JSON.stringify(bad));
      assert.throws(() => validatePathSegment(bad, 'app_name'), /app_name/);
    }
    assert.equal(validatePathSegment('ok_id-1.x', 'eval_set_id'), 'ok_id-1.x');
    assert.deepEqual(listEvalSetResults(join(work, 'absent')), []);
  });
});

describe('reading every shape ADK has written', () => {
  // ADK 1.18: json.dump of model_dump_json(), i.e. a JSON string holding the JSON; no
  // INFORMATIONAL status; EvalMetricResult had judge_model_options and details only rubric_scores.
  const v1 = {
    eval_set_result_id: 'app_set_1750000000.5', eval_set_result_name: 'app_set_1750000000.5', eval_set_id: 'set',
    eval_case_results: [{
      eval_set_file: 'set', eval_set_id: 'set', eval_id: 'case_1', final_eval_status: 2, eval_metric_results: null,
      overall_eval_metric_results: [{ metric_name: 'response_match_score', threshold: 0.8, judge_model_options: null, score: 0.5, eval_status: 2, details: { rubric_scores: null } }],
      eval_metric_result_per_invocation: [], session_id: '___eval___session___x', session_details: null, user_id: 'u',
    }],
    creation_timestamp: 1750000000.5,
  };

  test('1.x double-encoded files', () => {
    const r = readEvalSetResult(JSON.stringify(JSON.stringify(v1)));
    assert.equal(r.eval_case_results[0].final_eval_status, 'FAILED');
    assert.equal(r.eval_case_results[0].overall_eval_metric_results[0].eval_status, 'FAILED');
    assert.equal(r.eval_case_results[0].overall_eval_metric_results[0].judge_model_options, null, 'unknown fields are kept');
    assert.equal(r.creation_timestamp, 1750000000.5);
  });

  test('bytes, camelCase keys and string statuses', () => {
    const camel = {
      evalSetResultId: 'x', evalSetId: 's',
      evalCaseResults: [{ evalId: 'c', finalEvalStatus: 'PASSED', overallEvalMetricResults: [{ metricName: 'm', evalStatus: 'passed' }], evalMetricResultPerInvocation: [], sessionId: 'sid' }],
    };
    const r = readEvalSetResult(new TextEncoder().encode(JSON.stringify(camel)));
    assert.equal(r.eval_set_result_id, 'x');
    assert.equal(r.eval_case_results[0].eval_id, 'c');
    assert.equal(r.eval_case_results[0].final_eval_status, 'PASSED');
    assert.equal(r.eval_case_results[0].overall_eval_metric_results[0].metric_name, 'm');
    assert.equal(r.eval_case_results[0].overall_eval_metric_results[0].eval_status, 'PASSED');
    assert.equal(r.eval_set_result_name, null);
  });

  test('bad files are EvalErrors with a path', () => {
    const cases = [
      ['{', 'invalid_json', ''],
      ['[]', 'schema', '$'],
      [JSON.stringify({ eval_set_id: 's' }), 'schema', '$.eval_set_result_id'],
      [JSON.stringify({ ...v1, eval_case_results: [{ ...v1.eval_case_results[0], final_eval_status: 7 }] }), 'schema', '$.eval_case_results[0].final_eval_status'],
      [JSON.stringify({ ...v1, eval_case_results: [{ ...v1.eval_case_results[0], overall_eval_metric_results: [{ metric_name: 'm', eval_status: 'GREAT' }] }] }),
        'schema', '$.eval_case_results[0].overall_eval_metric_results[0].eval_status'],
      [JSON.stringify({ ...v1, eval_case_results: [{ final_eval_status: 1 }] }), 'schema', '$.eval_case_results[0].overall_eval_metric_results'],
    ];
    for (const [text, code, path] of cases) {
      assert.throws(() => readEvalSetResult(text), (e) => e instanceof EvalError && e.code === code && e.path === path, text);
    }
    assert.throws(() => readEvalSetResultFile(join(work, 'nope.json')), (e) => e instanceof EvalError && e.code === 'not_found');
  });

  test('status names and codes', () => {
    assert.equal(statusCode('NOT_EVALUATED'), 3);
    assert.equal(statusCode(4), 4);
    assert.equal(statusName(1), 'PASSED');
    assert.equal(statusName('EvalStatus.FAILED'), 'FAILED');
    assert.throws(() => statusCode(0), EvalError);
    assert.throws(() => statusName(null), EvalError);
  });
});
