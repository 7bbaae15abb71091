// loadEvalSetResult: the core's one model of results, read from every shape ADK has written
// (2.x files, 1.x double-encoded files, camelCase, integer or string statuses) and from
// evalcore's own; the surfaces built on it (history, AgentEvaluator's verdicts, reports).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EvalError, evaluate, loadEvalSetResult } from '../../pkg/index.js';
import { formatEvalSetResult } from '../../pkg/lib/node/history.js';
import { toJson } from '../../pkg/lib/report/reports.js';
import { judgeEvalSetResult } from '../../pkg/lib/testing/agent_evaluator.js';
import { ROOT, SHARED } from './helpers.mjs';

const ADK_TEXT = readFileSync(join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json'), 'utf8');

describe('loadEvalSetResult', () => {
  test("ADK 2.13's own file from text, bytes and a parsed value: statuses as names", () => {
    const fromText = loadEvalSetResult(ADK_TEXT);
    assert.deepEqual(fromText.eval_case_results.map((r) => r.final_eval_status), ['PASSED', 'PASSED', 'PASSED', 'FAILED']);
    assert.equal(fromText.eval_case_results[0].overall_eval_metric_results[2].eval_status, 'INFORMATIONAL');
    assert.deepEqual(loadEvalSetResult(new TextEncoder().encode(ADK_TEXT)), fromText);
    assert.deepEqual(loadEvalSetResult(JSON.parse(ADK_TEXT)), fromText);
    assert.equal(formatEvalSetResult(fromText), ADK_TEXT, 'and written back byte for byte');
  });

  test('ADK 1.x double-encoded files, as file text or as the string JSON.parse gives', () => {
    const v1 = {
      eval_set_result_id: 'a_s_1.5', eval_set_result_name: 'a_s_1.5', eval_set_id: 's', creation_timestamp: 1.5,
      eval_case_results: [{ eval_id: 'c', final_eval_status: 3, session_id: '', eval_metric_result_per_invocation: [],
        overall_eval_metric_results: [{ metric_name: 'm', eval_status: 3, judge_model_options: null, details: { rubric_scores: null } }] }],
    };
    const file = JSON.stringify(JSON.stringify(v1));
    for (const input of [file, JSON.parse(file)]) {
      const r = loadEvalSetResult(input);
      assert.equal(r.eval_case_results[0].final_eval_status, 'NOT_EVALUATED');
      assert.equal(r.eval_case_results[0].overall_eval_metric_results[0].judge_model_options, null, '1.x fields are kept');
    }
  });

  test("statuses as ADK's integers 1-4 or as names in any case", () => {
    const names = [1, 2, 3, 4, 'passed', 'EvalStatus.FAILED'].map((s) => loadEvalSetResult({
      eval_set_result_id: 'r', eval_set_id: 's',
      eval_case_results: [{ eval_id: 'c', final_eval_status: s, overall_eval_metric_results: [] }],
    }).eval_case_results[0].final_eval_status);
    assert.deepEqual(names, ['PASSED', 'FAILED', 'NOT_EVALUATED', 'INFORMATIONAL', 'PASSED', 'FAILED']);
  });

  test('bad input is an EvalError with a code and the JSON path', () => {
    const set = (cases) => ({ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: cases });
    const cases = [
      ['{', 'invalid_json', ''],
      [new Uint8Array([0x7b, 0xff]), 'invalid_json', ''],
      [[], 'schema', '$'],
      [{ eval_set_id: 's' }, 'schema', '$.eval_set_result_id'],
      [set([{ final_eval_status: 0, overall_eval_metric_results: [] }]), 'schema', '$.eval_case_results[0].final_eval_status'],
      [set([{ final_eval_status: 1 }]), 'schema', '$.eval_case_results[0].overall_eval_metric_results'],
      [set([{ final_eval_status: 1, overall_eval_metric_results: [{ metric_name: 'm', eval_status: 'OK' }] }]),
        'schema', '$.eval_case_results[0].overall_eval_metric_results[0].eval_status'],
    ];
    for (const [input, code, path] of cases) {
      assert.throws(() => loadEvalSetResult(input), (e) => e instanceof EvalError && e.code === code && e.path === path,
        JSON.stringify(input));
    }
    assert.throws(() => loadEvalSetResult(set([]), { runSumary: true }), (e) => e instanceof EvalError && e.path.startsWith('$options'));
  });

  test('{ runSummary: true }: the core computes the verdicts of results read back from files', () => {
    const r = loadEvalSetResult(ADK_TEXT, { runSummary: true });
    assert.equal(r.run_summary.num_runs, 1);
    const failing = r.run_summary.cases.find((c) => c.statuses[0] === 'FAILED');
    assert.ok(failing.metrics.some((m) => m.passed === false), JSON.stringify(failing));
    assert.ok(failing.metrics.every((m) => m.lower_is_better === false), "ADK's built-ins: higher is better, from the registry");
    assert.equal(loadEvalSetResult(ADK_TEXT).run_summary, undefined, 'only on request');
  });

  test("ADK result files in the shared corpus read and write back (skipped when it is absent)", (t) => {
    const corpus = join(SHARED, 'corpus');
    if (!existsSync(corpus)) {
      console.log(`skipped: ${corpus} is absent`);
      t.skip(`${corpus} is absent`);
      return;
    }
    const files = [];
    const walk = (d) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (n.includes('evalset_result')) files.push(p);
      }
    };
    walk(corpus);
    if (files.length === 0) {
      console.log(`skipped: no *evalset_result* files under ${corpus}`);
      t.skip('no result files in the corpus');
      return;
    }
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const r = loadEvalSetResult(text);
      if (text.trimStart().startsWith('{')) assert.equal(formatEvalSetResult(r), text, f);
    }
  });
});

describe('surfaces on the core model', () => {
  const metric = (score, status) => ({ metric_name: 'response_match_score', threshold: 0.5, criterion: { threshold: 0.5 }, score, eval_status: status });
  // Integer statuses (as in ADK's files) and statuses that, read naively, look "lower is better".
  const result = {
    eval_set_id: 's',
    eval_case_results: [{
      eval_id: 'c', final_eval_status: 1, session_id: '', overall_eval_metric_results: [metric(0.3, 1)],
      eval_metric_result_per_invocation: [{ eval_metric_results: [metric(0.2, 1)] }, { eval_metric_results: [metric(0.4, 1)] }],
    }],
  };

  test("AgentEvaluator's verdict is the core's: a built-in metric's direction comes from the registry", () => {
    const judged = judgeEvalSetResult(result);
    assert.deepEqual(judged.failures, ['response_match_score for c Failed. Expected 0.5, but got 0.30000000000000004.']);
  });

  test('reports count integer statuses by their names', () => {
    const out = JSON.parse(toJson(result));
    assert.deepEqual([out.summary.passed, out.summary.failed], [1, 0]);
  });

  test("evaluate's result is the core's model: it reads back unchanged", async () => {
    const evalSet = { eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [{ user_content: { parts: [{ text: 'hi' }] }, final_response: { parts: [{ text: 'hello there' }] } }] }] };
    const r = await evaluate({ evalSet, agent: async () => 'hello there', numRuns: 2, config: { criteria: { response_match_score: 0.5 } } });
    assert.deepEqual(loadEvalSetResult(r), r);
    assert.equal(r.run_summary.cases[0].metrics[0].lower_is_better, false);
    assert.match(r.eval_set_result_id, /^evalcore_s_\d+\.\d+$/, "the id's time is Python's float repr");
  });
});
