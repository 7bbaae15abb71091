// The browser/worker entry: the extras module (traces, comparison statistics, agents-cli
// datasets) is not loaded until `initExtras` (a page that never needs it never fetches it).
// Before it, each function that needs it says what to call (ADK's own shapes load from the main
// module alone); after it, everything works as in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as web from '../../pkg/web.js';
import { calibrate, compareRuns } from '../../pkg/lib/report/reports.js';
import { DATA, readJsonl } from './helpers.mjs';

const pkg = new URL('../../pkg/', import.meta.url);
const notLoaded = (e) => e.code === 'not_initialised' && /initExtras/.test(e.message);
const dataset = readFileSync(new URL('../tests/data/agents_cli/single-turn-responses.json', pkg));
const trace = () => readFileSync(new URL('../tests/data/traces/adk-js.otlp.json', pkg));
const [scenario] = readJsonl(`${DATA}/compare/scenarios.jsonl`);
const legacy = JSON.stringify([{ query: 'hi', expected_tool_use: [], reference: 'hello' }]);
const iqai = JSON.stringify({ evalSetId: 's', evalCases: [{ evalId: 'c', conversation: [] }] });
const turn = (text) => ({ invocation_id: 'i', user_content: { role: 'user', parts: [{ text: 'hi' }] }, final_response: { role: 'model', parts: [{ text }] } });
const evalCase = { eval_id: 'c', conversation: [turn('hello there')] };
const actual = [turn('hello')];
const adk = { eval_set_id: 's', eval_cases: [evalCase] };
const agentsCliConfig = { metrics_to_run: ['response_match_score'] };

test('web entry: what needs the extras module names initExtras until it is loaded, then works', async () => {
  web.initSync(readFileSync(new URL('wasm/evalcore_core_bg.wasm', pkg)));
  // The main module alone: ADK's eval sets and configs.
  assert.equal(web.loadEvalSet(adk).eval_cases[0].eval_id, 'c');
  assert.deepEqual(web.validateEvalSet(adk), { ok: true, errors: [] });
  assert.deepEqual(Object.keys(web.loadEvalConfig({ criteria: { response_match_score: 0.5 } }).criteria), ['response_match_score']);
  // ADK's console report is on the scoring path: the main module writes it (issue 33).
  assert.match(web.formatReport([]), /Eval Run Summary/);
  // What the main module hands over.
  assert.throws(() => web.loadEvalSet(legacy, { id: 'old' }), notLoaded);
  assert.throws(() => web.loadEvalSet(JSON.parse(iqai)), notLoaded);
  assert.ok(notLoaded(web.validateEvalSet(legacy).errors[0]));
  assert.throws(() => web.loadEvalConfig(agentsCliConfig), notLoaded);
  assert.ok(notLoaded(web.validateEvalConfig(agentsCliConfig).errors[0]));
  await assert.rejects(web.evaluateInvocations({ evalCase, actual, config: agentsCliConfig }), notLoaded);
  assert.throws(() => web.loadEvalSet(dataset), notLoaded);
  assert.throws(() => web.loadEvalSet(dataset.toString()), notLoaded);
  const v = web.validateEvalSet(dataset);
  assert.equal(v.ok, false);
  assert.ok(notLoaded(v.errors[0]), JSON.stringify(v.errors));
  assert.throws(() => web.loadEvaluationDataset(dataset), notLoaded);
  assert.throws(() => web.toEvaluationDataset({ evalSet: legacy }), notLoaded);
  assert.throws(() => web.loadTraces(trace()), notLoaded);
  assert.throws(() => compareRuns(scenario.baseline, scenario.candidate), notLoaded);
  // A file that is neither is still the main module's error, not a request to load anything.
  assert.throws(() => web.loadEvalSet('{"eval_cases": 3}'), (e) => e.code === 'schema');

  await web.initExtras(readFileSync(new URL('wasm-extras/evalcore_extras_bg.wasm', pkg)));
  await web.initExtras(); // idempotent
  assert.equal(web.loadEvalSet(legacy, { id: 'old' }).eval_set_id, 'old');
  assert.equal(web.loadEvalSet(JSON.parse(iqai)).eval_cases[0].eval_id, 'c');
  assert.deepEqual(web.validateEvalSet(legacy), { ok: true, errors: [] });
  assert.deepEqual(Object.keys(web.loadEvalConfig(agentsCliConfig).criteria), ['response_match_score']);
  assert.equal(web.validateEvalConfig(agentsCliConfig).ok, true);
  // An agents-cli config given to an evaluation is converted as loadEvalConfig converts it.
  const scored = await web.evaluateInvocations({ evalCase, actual, config: agentsCliConfig });
  const same = await web.evaluateInvocations({ evalCase, actual, config: web.loadEvalConfig(agentsCliConfig) });
  assert.deepEqual(scored, same);
  assert.equal(scored.overall_eval_metric_results[0].metric_name, 'response_match_score');
  assert.match(web.formatReport([scored]), /Tests failed: 1/);
  const set = web.loadEvalSet(dataset);
  assert.ok(set.eval_cases.length > 0);
  assert.deepEqual(web.loadEvalSet(dataset.toString()), set);
  assert.deepEqual(web.validateEvalSet(dataset), { ok: true, errors: [] });
  assert.deepEqual(web.loadEvaluationDataset(dataset).eval_set, set);
  assert.ok(Array.isArray(web.toEvaluationDataset({ evalSet: legacy }).eval_cases));
  assert.equal(web.loadTraces(trace()).sessions[0].source, 'adk-js');
  assert.equal(typeof compareRuns(scenario.baseline, scenario.candidate, { alpha: scenario.alpha }).verdict, 'string');
  assert.equal(typeof calibrate, 'function');
  // A broken dataset's problems come from the extras module's reader, with their paths.
  const broken = JSON.stringify({ eval_cases: [{ eval_case_id: 'x', prompt: 3 }] });
  const b = web.validateEvalSet(broken);
  assert.equal(b.ok, false);
  assert.ok(b.errors.every((e) => e.code !== 'not_initialised' && e.path.startsWith('$.eval_cases[0]')), JSON.stringify(b.errors));
});
