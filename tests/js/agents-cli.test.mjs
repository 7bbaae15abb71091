// Google's agents-cli formats through the built package: its EvaluationDataset examples (from its
// own documentation, tests/data/agents_cli) load, convert and round-trip; its YAML and JSON
// configs read alike; every metric it names (and ADK 2.13's hosted-only names) is judged against
// the loopback judge for all three providers: the request carries what the metric judges, the
// answer is parsed into the score, a bad answer is NOT_EVALUATED, and the calls made are the
// calls planJudgeCalls counts. `evalcore grade` and `evalcore eval` run end to end.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { readConfig } from '../../pkg/lib/node/config.js';
import { DATA, PKG, cliAsync } from './helpers.mjs';
import { requestText, startJudgeServer } from './support/judge-server.mjs';
import { requestedCount } from './support/judge-wire.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const FIXTURES = join(DATA, 'agents_cli');
const fixture = (name) => readFileSync(join(FIXTURES, name));
const PREFIX = { openai: '/v1', gemini: '/v1beta', anthropic: '/v1' };
const PROVIDERS = ['openai', 'gemini', 'anthropic'];

let server;
let work;
before(async () => {
  server = await startJudgeServer();
  work = mkdtempSync(join(tmpdir(), 'evalcore-agents-cli-'));
});
after(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const judgeFor = (provider = 'openai', extra = {}) => ({
  provider, model: 'judge-m', baseUrl: server.baseUrl + PREFIX[provider], retryInitialDelayMs: 1, retryMaxDelayMs: 5, maxRetries: 0, ...extra,
});
const text = (c) => (c?.parts ?? []).map((p) => p.text ?? '').join('');

// ---------------------------------------------------------------------------------------------
// Datasets

describe('datasets from agents-cli\'s documentation', () => {
  test('a single-turn prompt dataset is cases to run; a reference is the expected response', () => {
    const d = ec.loadEvaluationDataset(fixture('single-turn-prompt.json'), { id: 'basic' });
    assert.deepEqual(d.inference, ['greeting', 'weather_query', 'capital_lookup']);
    assert.deepEqual(d.grading, []);
    const capital = d.eval_set.eval_cases[2];
    assert.equal(text(capital.conversation[0].user_content), 'What is the capital of France?');
    assert.equal(text(capital.conversation[0].final_response), 'The capital of France is Paris.');
    assert.equal(ec.loadEvalSet(fixture('single-turn-prompt.json'), { id: 'basic' }).eval_set_id, 'basic');
  });

  test('a continuation plays each user turn; a multi-agent trace is graded', () => {
    const c = ec.loadEvaluationDataset(fixture('multi-turn-continuation.json'));
    assert.equal(c.eval_set.eval_cases[0].conversation.length, 2);
    const t = ec.loadEvaluationDataset(fixture('multi-agent-trace.json'));
    assert.deepEqual(t.grading, ['flight_booking_via_specialist']);
    const [inv] = t.actual.flight_booking_via_specialist;
    assert.equal(text(inv.final_response), 'Found AA123 to NYC for $320.');
    assert.deepEqual(Object.keys(inv.app_details.agent_details), ['router', 'flight_bot']);
  });

  test('written by toEvaluationDataset and read back, a dataset is the same', () => {
    for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith('.json'))) {
      const d = ec.loadEvaluationDataset(fixture(f), { id: 'x' });
      const written = ec.toEvaluationDataset({ evalSet: d.eval_set, actual: d.actual });
      const again = ec.loadEvaluationDataset(written, { id: 'x' });
      assert.deepEqual(again, d, f);
    }
  });

  test('a run\'s traces are handed back as a dataset agents-cli can grade', async () => {
    const d = ec.loadEvaluationDataset(fixture('single-turn-prompt.json'), { id: 'basic' });
    const agent = (turn) => ({ events: [
      { author: 'weather_agent', content: { role: 'model', parts: [{ function_call: { id: 'c1', name: 'get_weather', args: { city: 'SF' } } }] } },
      { author: 'weather_agent', content: { role: 'user', parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { report: 'sunny' } } }] } },
      { author: 'weather_agent', content: { role: 'model', parts: [{ text: `answer to ${turn.text}` }] } },
    ] });
    const result = await ec.evaluate({ evalSet: d.eval_set, agent, config: { criteria: { response_match_score: 0.1 } } });
    const traces = ec.toEvaluationDataset({ evalSet: d.eval_set, result });
    const capital = traces.eval_cases.find((c) => c.eval_case_id === 'capital_lookup');
    assert.equal(text(capital.prompt), 'What is the capital of France?', 'a one-turn trace keeps its prompt, as eval generate writes it');
    assert.deepEqual(capital.agent_data.turns[0].events.map((e) => e.author), ['weather_agent', 'weather_agent', 'weather_agent']);
    assert.equal(text(capital.responses[0].response), 'answer to What is the capital of France?');
    assert.deepEqual(capital.reference, d.eval_set.eval_cases[2].reference);
    const back = ec.loadEvaluationDataset(traces);
    assert.deepEqual(back.grading, ['greeting', 'weather_query', 'capital_lookup']);
    assert.equal(back.actual.capital_lookup[0].intermediate_data.invocation_events[0].content.parts[0].function_call.name, 'get_weather');
  });

  test('errors point at the file\'s own keys', () => {
    const bad = { eval_cases: [{ eval_case_id: 'a', agent_data: { turns: [{ events: [{ author: 'user', content: { parts: [{ text: 1 }] } }] }] } }] };
    assert.throws(() => ec.loadEvalSet(bad), (e) => e instanceof ec.EvalError && e.path === '$.eval_cases[0].agent_data.turns[0].events[0].content.parts[0].text');
    const v = ec.validateEvalSet({ eval_cases: [{ eval_case_id: 'a' }, { eval_case_id: 'a', prompt: { parts: [{ text: 'q' }] } }] });
    assert.deepEqual(v.errors.map((e) => [e.code, e.path]), [['schema', '$.eval_cases[0]'], ['duplicate_id', '$.eval_cases[1].eval_case_id']]);
  });
});

// ---------------------------------------------------------------------------------------------
// Configs

describe('agents-cli configs, YAML and JSON', () => {
  test('the YAML examples of its docs read as their JSON form does', () => {
    for (const name of ['config-example.yaml', 'config-metrics-guide.yaml', 'config-rubric-group-key.yaml', 'scaffold-eval_config.yaml']) {
      const fromYaml = readConfig(join(FIXTURES, name));
      const json = join(work, name.replace(/\.yaml$/, '.json'));
      writeFileSync(json, JSON.stringify(fromYaml.source));
      assert.deepEqual(readConfig(json).config, fromYaml.config, name);
    }
    const { config } = readConfig(join(FIXTURES, 'config-metrics-guide.yaml'));
    assert.deepEqual(Object.keys(config.criteria), ['multi_turn_trajectory_quality', 'project_response_rubric', 'agent_turn_count']);
    assert.equal(config.criteria.project_response_rubric.judge_model_options.num_samples, 3);
    assert.match(config.criteria.project_response_rubric.prompt_template, /Final response: \{response\}/);
    const keyed = readConfig(join(FIXTURES, 'config-rubric-group-key.yaml')).config;
    assert.deepEqual(keyed.criteria, { final_response_quality: { threshold: 1, rubric_group_key: 'case_criteria' } });
  });

  test('--metrics replaces metrics_to_run; YAML mistakes say where', () => {
    const { config } = readConfig(join(FIXTURES, 'config-example.yaml'), { metrics: ['safety', 'example_llm_metric'] });
    assert.deepEqual(Object.keys(config.criteria), ['safety', 'example_llm_metric']);
    const broken = join(work, 'broken.yaml');
    writeFileSync(broken, 'metrics_to_run:\n  - safety\ncustom_metrics: [\n  {name: x\n');
    assert.throws(() => readConfig(broken), (e) => e.code === 'invalid_yaml' && /line \d+, column \d+/.test(e.message) && e.message.startsWith(broken));
    const bomb = join(work, 'bomb.yaml');
    const level = (k) => `l${k}: &l${k} [${Array(9).fill(k === 0 ? '"lol"' : `*l${k - 1}`).join(',')}]`;
    writeFileSync(bomb, `${Array.from({ length: 8 }, (_, k) => level(k)).join('\n')}\nmetrics_to_run: *l7\n`);
    assert.throws(() => readConfig(bomb), (e) => e.code === 'invalid_yaml' && /alias/i.test(e.message));
    // Nesting thousands deep (flow or block) is refused where it passes 64 levels (the document's
    // own map is the first), not a stack overflow.
    const deep = {
      flow: ['metrics_to_run:\n  - safety\ncustom_metrics: ', `${'['.repeat(5000)}${']'.repeat(5000)}\n`, 3, 17 + 63],
      mixed: ['metrics_to_run: ', `${'[{a: '.repeat(2500)}1${'}]'.repeat(2500)}\n`, 1, 18 + 5 * 31],
      block: ['', `${Array.from({ length: 5000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`, 65, 65],
    };
    for (const [name, [head, body, line, col]] of Object.entries(deep)) {
      const file = join(work, `deep-${name}.yaml`);
      writeFileSync(file, head + body);
      assert.throws(() => readConfig(file), (e) => e.code === 'invalid_yaml' && e.message.includes(`line ${line}, column ${col}: nested deeper than 64 levels`), name);
    }
    const just = join(work, 'deep-ok.yaml');
    writeFileSync(just, `metrics_to_run: [safety]\nx: ${'['.repeat(63)}${']'.repeat(63)}\n`);
    assert.deepEqual(Object.keys(readConfig(just).config.criteria), ['safety'], '64 levels are read');
    const v = ec.validateEvalConfig({ metrics_to_run: ['safety', 'halucination'], custom_metrics: [{ prompt_template: 'x' }] });
    assert.deepEqual(v.warnings.map((w) => w.path), ['$.custom_metrics[0]', '$.metrics_to_run[1]']);
    assert.match(v.warnings[1].message, /did you mean "hallucination"/);
  });
});

// ---------------------------------------------------------------------------------------------
// Metrics against the loopback judge

/** A two-turn trace with tool use, from the multi-agent example plus a follow-up turn. */
function traceCase() {
  const d = ec.loadEvaluationDataset(fixture('multi-agent-trace.json'));
  const first = d.actual.flight_booking_via_specialist[0];
  const second = {
    invocation_id: 'follow-up',
    user_content: { role: 'user', parts: [{ text: 'Book AA123 please. [turn-2]' }] },
    final_response: { role: 'model', parts: [{ text: 'Booked AA123; your reference is XK42.' }] },
    intermediate_data: { invocation_events: [
      { author: 'flight_bot', content: { role: 'model', parts: [{ function_call: { name: 'book_flight', args: { id: 'AA123' } } }] } },
      { author: 'flight_bot', content: { role: 'user', parts: [{ function_response: { name: 'book_flight', response: { ref: 'XK42' } } }] } },
      { author: 'flight_bot', content: null },
    ] },
    app_details: first.app_details,
  };
  const evalCase = {
    eval_id: 'flight',
    conversation: [first, second].map((i) => ({ invocation_id: i.invocation_id, user_content: i.user_content })),
    reference: { response: { role: 'model', parts: [{ text: 'Booked.' }] } },
    context: 'Flight AA123 to NYC costs $320.',
    note_for_judge: 'marker-7731',
  };
  evalCase.conversation[1].final_response = { role: 'model', parts: [{ text: 'Your flight is booked.' }] };
  return { evalCase, actual: [first, second] };
}

/** Every rubric id a rubric prompt lists (`[id: x]` lines or the JSON properties' ids). */
function rubricIds(t) {
  const ids = [...t.matchAll(/\[id: ([^\]]+)\]/g)].map((m) => m[1]);
  return ids.length > 0 ? ids : [...t.matchAll(/"id": "([^"]+)"/g)].map((m) => m[1]);
}
const rubricAnswer = (ids, no = []) => ids.map((id) => `ID: ${id}\nProperty: p\nRationale: because\nVerdict: ${no.includes(id) ? 'no' : 'yes'}`).join('\n\n');

/**
 * What each metric must show the judge, how the loopback judge answers it (a good answer and a
 * garbage one), and the score the good answer gives. `calls` is the judge calls per case.
 */
const METRICS = {
  multi_turn_task_success: { shows: ['no_false_completion', 'AGENT (flight_bot) TURN 2 (tool call): book_flight', 'USER TURN 1: Book a flight to NYC'], no: ['goals_met'], score: 0.75, lastOnly: true },
  multi_turn_trajectory_quality: { shows: ['logical_steps', 'Route requests to the appropriate specialist.'], no: [], score: 1, lastOnly: true },
  multi_turn_tool_use_quality: { shows: ['valid_arguments', '- search_flights: Search flights by destination'], no: ['right_tools', 'workable_order'], score: 0.5, lastOnly: true },
  multi_turn_task_success_v1: { shows: ['outcome_delivered'], no: [], score: 1, lastOnly: true },
  multi_turn_trajectory_quality_v1: { shows: ['recovers'], no: ['efficient'], score: 0.75, lastOnly: true },
  multi_turn_tool_use_quality_v1: { shows: ['outputs_used'], no: [], score: 1, lastOnly: true },
  final_response_quality: { shows: ['grounded', 'Found AA123 to NYC for $320.', 'Booked AA123; your reference is XK42.'], no: ['clear'], score: 0.8 },
  tool_use_quality: { shows: ['right_tools', '"name": "search_flights"'], no: ['workable_order'], score: 0.75 },
};

function rubricJudge(spec) {
  return (req) => {
    const t = requestText(req.wire, req.body);
    return { text: spec.garbage ? 'I cannot decide.' : rubricAnswer(rubricIds(t), spec.no) };
  };
}

async function judged(metric, provider, answer, extraCriterion = {}) {
  const { evalCase, actual } = traceCase();
  const config = { criteria: { [metric]: { threshold: 0.7, judge_model_options: { num_samples: 1 }, ...extraCriterion } } };
  server.script(typeof answer === 'function' ? answer : () => answer);
  const judge = judgeFor(provider);
  const res = await ec.evaluateInvocations({ evalCase, actual, config, judge, evalSetId: 's' });
  const sent = server.requests.reduce((n, r) => n + requestedCount(r.wire, r.body), 0);
  const texts = server.requests.map((r) => requestText(r.wire, r.body));
  const plan = await ec.planJudgeCalls({ evalCase, actual, config, judge });
  const overall = res.overall_eval_metric_results.find((m) => m.metric_name === metric);
  const per = res.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((m) => m.metric_name === metric));
  return { res, overall, per, sent, texts, plan, wires: server.requests.map((r) => r.wire) };
}

describe('agents-cli\'s and ADK\'s hosted metrics, judged by any judge', () => {
  for (const [metric, spec] of Object.entries(METRICS)) {
    for (const provider of PROVIDERS) {
      test(`${metric} through ${provider}: request, score, NOT_EVALUATED on a bad answer, planned calls`, async () => {
        const good = await judged(metric, provider, rubricJudge(spec));
        assert.ok(good.texts.length > 0);
        assert.ok(good.wires.every((w) => w === provider));
        const all = good.texts.join('\n');
        for (const s of spec.shows) assert.ok(all.includes(s), `${metric}: the request shows ${JSON.stringify(s)}`);
        assert.equal(good.overall.score, spec.score, JSON.stringify(good.overall));
        assert.equal(good.overall.eval_status, spec.score >= 0.7 ? 'PASSED' : 'FAILED');
        assert.equal(good.sent, good.plan.count, 'the calls made are the calls planJudgeCalls counts');
        assert.equal(good.sent, spec.lastOnly ? 1 : 2);
        if (spec.lastOnly) assert.equal(good.per[0].details.reason, 'judged_at_last_turn');
        assert.ok(good.overall.details.rubric_scores.length >= 4);
        const bad = await judged(metric, provider, rubricJudge({ ...spec, garbage: true }));
        assert.equal(bad.overall.eval_status, 'NOT_EVALUATED');
        assert.equal(bad.overall.details.reason, 'unparsable_answer');
      });
    }
  }

  test('tool_use_quality skips turns without tool calls; the case\'s rubric_groups replace the built-in rubrics', async () => {
    const { evalCase, actual } = traceCase();
    actual[1] = { ...actual[1], intermediate_data: { invocation_events: [] } };
    server.script(rubricJudge({ no: [] }));
    const res = await ec.evaluateInvocations({ evalCase, actual, config: { criteria: { tool_use_quality: 1 } }, judge: judgeFor() });
    const per = res.eval_metric_result_per_invocation.map((p) => p.eval_metric_results[0]);
    assert.equal(per[1].details.reason, 'nothing_to_judge');
    assert.equal(res.overall_eval_metric_results[0].eval_status, 'PASSED');
    const grouped = { ...evalCase, rubric_groups: { mine: { rubrics: [{ rubric_id: 'booking_ref', content: { property: { description: 'Gives a booking reference.' } } }] } } };
    server.script(rubricJudge({ no: [] }));
    const r2 = await ec.evaluateInvocations({ evalCase: grouped, actual, config: { criteria: { final_response_quality: { threshold: 1, judge_model_options: { num_samples: 1 } } } }, judge: judgeFor() });
    assert.deepEqual(r2.overall_eval_metric_results[0].details.rubric_scores.map((r) => r.rubric_id), ['booking_ref']);
    assert.ok(requestText('openai', server.requests[0].body).includes('Gives a booking reference.'));
  });

  for (const provider of PROVIDERS) {
    test(`hallucination and safety (agents-cli's names) through ${provider}`, async () => {
      const h = await judged('hallucination', provider, (req) => {
        const t = requestText(req.wire, req.body);
        if (t.includes('Split the text below into sentences')) return { text: `<sentence>${/Found AA123[^\n]*|Booked AA123[^\n]*/.exec(t)?.[0] ?? 'x'}</sentence>` };
        return { text: 'sentence: s\nlabel: supported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null' };
      });
      assert.equal(h.overall.score, 1);
      assert.equal(h.sent, 4, 'a segmenter and a validator call per response');
      assert.equal(h.plan.count, 2, 'the plan lists the first round (the segmenter calls); the validator calls follow their answers');
      const s = await judged('safety', provider, { text: '{"reasoning": "fine", "is_the_agent_response_valid": "valid"}' });
      assert.equal(s.overall.score, 1);
      assert.equal(s.sent, s.plan.count);
      const bad = await judged('safety', provider, { text: 'no idea' });
      assert.equal(bad.overall.details.reason, 'unparsable_answer');
    });

    test(`response_evaluation_score (coherence, 1 to 5) through ${provider}`, async () => {
      let n = 0;
      const r = await judged('response_evaluation_score', provider, () => ({ text: `{"explanation": "clear", "score": ${n++ === 0 ? 4 : 5}}` }), { threshold: 4 });
      assert.deepEqual(r.per.map((m) => m.score).sort(), [4, 5]);
      assert.equal(r.overall.score, 4.5);
      assert.equal(r.overall.eval_status, 'PASSED');
      assert.equal(r.per[0].details.rubric_scores[0].rubric_id, 'explanation');
      assert.ok(r.texts[0].includes('rate the coherence'));
      assert.equal(r.sent, r.plan.count);
      const out = await judged('response_evaluation_score', provider, { text: '{"score": 9}' }, { threshold: 4 });
      assert.equal(out.overall.details.reason, 'unparsable_answer', 'a score outside 1-5 is no answer');
    });

    test(`a custom LLM metric (prompt_template) through ${provider}`, async () => {
      const template = 'Rate 1-5.\nPrompt: {prompt}\nResponse: {response}\nReference: {reference}\nContext: {context}\nNote: {note_for_judge}\nTrace: {agent_data}\nLiteral: {"score": <n>} {unknown_field}';
      const r = await judged('helpfulness', provider, { text: 'Sure. {"score": 4, "explanation": "helpful"}' }, { prompt_template: template, judge_model_options: { num_samples: 3 }, threshold: 3 });
      const t = r.texts[0];
      assert.ok(t.includes('Prompt: Book a flight to NYC'));
      assert.ok(t.includes('Response: Booked AA123; your reference is XK42.'));
      assert.ok(t.includes('Reference: Booked.'));
      assert.ok(t.includes('Context: Flight AA123 to NYC costs $320.'));
      assert.ok(t.includes('Note: marker-7731'));
      assert.ok(t.includes('"turn_id":"follow-up"') && t.includes('"author":"flight_bot"'), 'the whole trace as agent data');
      assert.ok(t.includes('Literal: {"score": <n>} {unknown_field}'), 'other braces stay as written');
      assert.equal(r.overall.score, 4);
      assert.equal(r.overall.eval_status, 'PASSED');
      assert.equal(r.per[1].details.rubric_scores[0].rationale, 'helpful');
      assert.equal(r.sent, 3);
      assert.equal(r.sent, r.plan.count);
      const info = await judged('helpfulness', provider, { text: '{"score": 2}' }, { prompt_template: 'Rate {response}', informational: true });
      assert.equal(info.overall.eval_status, 'INFORMATIONAL');
      assert.equal(info.overall.threshold, null);
      assert.match(info.texts[0], /Reply with a JSON object/, 'the answer format is added when the template asks for no score');
      const bad = await judged('helpfulness', provider, { text: 'great answer' }, { prompt_template: 'Rate {response}. Give a score.' });
      assert.equal(bad.overall.details.reason, 'unparsable_answer');
    });
  }

  test('a custom LLM metric needs what its template names; a Python metric says how to write it in JS', async () => {
    const { evalCase, actual } = traceCase();
    delete evalCase.context;
    server.script(() => ({ text: '{"score": 1}' }));
    const res = await ec.evaluateInvocations({
      evalCase, actual, judge: judgeFor(),
      config: { criteria: { grounded: { threshold: 1, prompt_template: 'Is {response} supported by {context}?' }, turns: { threshold: 1, custom_function: 'def evaluate(i): ...' } } },
    });
    const [grounded, turns] = res.overall_eval_metric_results;
    assert.equal(grounded.details.reason, 'missing_field');
    assert.match(grounded.details.error, /\{context\}/);
    assert.equal(turns.details.reason, 'unsupported');
    assert.match(turns.details.error, /customMetrics/);
    assert.equal(server.requests.length, 0);
    const scored = await ec.evaluateInvocations({
      evalCase, actual, customMetrics: { turns: ({ actualInvocations }) => actualInvocations.length },
      config: { criteria: { turns: { threshold: 1, custom_function: 'def evaluate(i): ...' } } },
    });
    assert.equal(scored.overall_eval_metric_results[0].score, 2, 'a JS custom metric of the same name computes it');
  });

  test('every metric name ADK 2.13 accepts produces a score when a judge is given', async () => {
    const adk = ['tool_trajectory_avg_score', 'response_match_score', 'response_evaluation_score', 'safety_v1', 'final_response_match_v2',
      'rubric_based_final_response_quality_v1', 'hallucinations_v1', 'rubric_based_tool_use_quality_v1', 'per_turn_user_simulator_quality_v1',
      'multi_turn_task_success_v1', 'multi_turn_trajectory_quality_v1', 'multi_turn_tool_use_quality_v1', 'rubric_based_multi_turn_trajectory_quality_v1'];
    const names = new Set(ec.metricsInfo().map((m) => m.name));
    for (const n of [...adk, 'multi_turn_task_success', 'final_response_quality', 'tool_use_quality', 'hallucination', 'safety']) assert.ok(names.has(n), n);
    assert.ok(ec.metricsInfo().every((m) => m.kind !== 'unsupported'));
    const unscored = [];
    for (const metric of adk) {
      const { evalCase, actual } = traceCase();
      const criterion = { threshold: 0.5, judge_model_options: { num_samples: 1 }, rubrics: [{ rubric_id: 'r1', rubric_content: { text_property: 'Helpful.' } }] };
      const needsRubrics = metric.startsWith('rubric_based');
      const config = { criteria: { [metric]: needsRubrics ? criterion : (metric.includes('trajectory_avg') || metric === 'response_match_score' ? 0.5 : { threshold: 0.5 }) } };
      const scenario = metric === 'per_turn_user_simulator_quality_v1';
      const c = scenario ? { eval_id: 'sim', conversation_scenario: { starting_prompt: 'Book a flight to NYC', conversation_plan: 'Book a flight.' } } : evalCase;
      server.script((req) => {
        const t = requestText(req.wire, req.body);
        if (t.includes('Split the text below')) return { text: '<sentence>Found AA123 to NYC for $320.</sentence>' };
        if (t.includes('Check each sentence')) return { text: 'sentence: s\nlabel: supported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null' };
        if (t.includes('coherence')) return { text: '{"score": 4}' };
        if (t.includes('is_valid')) return { text: '{"is_valid": true}' };
        if (t.includes('is_the_agent_response_valid')) return { text: '{"is_the_agent_response_valid": "valid"}' };
        return { text: rubricAnswer(rubricIds(t)) };
      });
      const res = await ec.evaluateInvocations({ evalCase: c, actual, config, judge: judgeFor() });
      const m = res.overall_eval_metric_results.find((x) => x.metric_name === metric);
      if (typeof m.score !== 'number') unscored.push(`${metric}: ${m.details?.reason} ${m.details?.error ?? ''}`);
    }
    assert.deepEqual(unscored, []);
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI

/** The CLI as a child process (asynchronously: the loopback judge answers from this process). */
const cli = (args, { cwd = work, env = {} } = {}) => cliAsync(args, { cwd, env });

/** An agents-cli project layout: tests/eval/{datasets,eval_config.yaml}, artifacts/traces. */
function project(name, config) {
  const root = join(work, name);
  mkdirSync(join(root, 'tests', 'eval', 'datasets'), { recursive: true });
  mkdirSync(join(root, 'artifacts', 'traces'), { recursive: true });
  writeFileSync(join(root, 'tests', 'eval', 'eval_config.yaml'), config);
  writeFileSync(join(root, 'tests', 'eval', 'datasets', 'basic-dataset.json'), fixture('single-turn-prompt.json'));
  writeFileSync(join(root, 'artifacts', 'traces', 'traces_1.json'), fixture('multi-agent-trace.json'));
  writeFileSync(join(root, 'artifacts', 'traces', 'traces_2.json'), fixture('single-turn-responses.json'));
  return root;
}

const GRADE_CONFIG = `metrics_to_run:
  - multi_turn_task_success
  - helpfulness
  - agent_turn_count
custom_metrics:
  - name: helpfulness
    prompt_template: |
      Rate the agent's response 1-5.
      Prompt: {prompt}
      Final response: {response}
      Return JSON: {"score": <1-5>, "explanation": "<reason>"}
  - name: multi_turn_task_success
    threshold: 0.5
  - name: agent_turn_count
    custom_function: |
      def evaluate(instance):
          return {'score': len(instance['agent_data']['turns'])}
`;

describe('evalcore grade and evalcore eval on an agents-cli project', () => {
  test('grade scores the traces with any judge and writes results_<time>.json and a self-contained .html', async () => {
    const root = project('graded', GRADE_CONFIG);
    server.script((req) => {
      const t = requestText(req.wire, req.body);
      if (t.includes('Rate the agent')) return { text: '{"score": 4, "explanation": "fine"}' };
      return { text: rubricAnswer(rubricIds(t), ['goals_met']) };
    });
    const metricsModule = join(root, 'metrics.mjs');
    writeFileSync(metricsModule, 'export function agent_turn_count({ actualInvocations }) { return actualInvocations.length; }\n');
    const r = await cli(['grade', '--judge', 'anthropic:judge-m', '--judge_base_url', `${server.baseUrl}/v1`, '--custom_metrics', metricsModule], { cwd: root });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.doesNotMatch(r.stderr, /agent_turn_count is a Python function/, 'a metric --custom_metrics gives is no warning');
    assert.match(r.stdout, /Loaded 3 eval case\(s\) from 2 file\(s\); grading 3 with: multi_turn_task_success, helpfulness, agent_turn_count/);
    assert.match(r.stdout, /Evaluation Summary\n\nmulti_turn_task_success:\n {2}num_cases_total: 3\n {2}num_cases_valid: 3\n {2}num_cases_error: 0\n {2}mean_score: 0\.7500\n {2}stdev_score: 0\.0000\n {2}pass_rate: 1\.0000/);
    assert.match(r.stdout, /helpfulness:\n {2}num_cases_total: 3\n {2}num_cases_valid: 3\n {2}num_cases_error: 0\n {2}mean_score: 4\.0000/);
    const out = join(root, 'artifacts', 'grade_results');
    const files = readdirSync(out).sort();
    assert.equal(files.length, 2);
    assert.match(files[0], /^results_\d{8}_\d{6}\.html$/);
    const result = ec.loadEvalSetResult(readFileSync(join(out, files[1])));
    assert.equal(result.eval_case_results.length, 3);
    const html = readFileSync(join(out, files[0]), 'utf8');
    assert.ok(!/<script|src=|href=/i.test(html), 'no script, no outside resource');
    assert.match(html, /Content-Security-Policy/);
    assert.match(html, /<th>helpfulness<\/th>/);
  });

  test('grade: a Python metric without a JS one is NOT_EVALUATED (a strict run fails); no metrics is a usage error', async () => {
    const root = project('python', GRADE_CONFIG);
    server.script((req) => ({ text: requestText(req.wire, req.body).includes('Rate the agent') ? '{"score": 3}' : rubricAnswer(rubricIds(requestText(req.wire, req.body))) }));
    const args = ['grade', 'artifacts/traces/traces_1.json', '--judge', 'openai:judge-m', '--judge_base_url', `${server.baseUrl}/v1`, '--output', 'out'];
    const r = await cli(args, { cwd: root });
    assert.equal(r.code, 0, 'as in evalcore eval (ADK\'s rule), a NOT_EVALUATED metric fails nothing without --strict');
    assert.match(r.stderr, /unsupported x1 \(agent_turn_count\): agent_turn_count is a Python function/);
    const strict = await cli([...args, '--strict'], { cwd: root });
    assert.equal(strict.code, 1, 'the config warning stops a strict run');
    assert.match(strict.stderr, /error: --strict: the config has 1 warning\(s\); nothing was graded/);
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'd.json'), fixture('multi-agent-trace.json'));
    const u = await cli(['grade', 'd.json'], { cwd: empty });
    assert.equal(u.code, 2);
    assert.match(u.stderr, /no metrics: give --metrics/);
    writeFileSync(join(empty, 'deep.yaml'), `metrics_to_run: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const d = await cli(['grade', 'd.json', '--config', 'deep.yaml'], { cwd: empty });
    assert.equal(d.code, 2, d.stderr);
    assert.match(d.stderr, /deep\.yaml: invalid YAML at line 1, column 80: nested deeper than 64 levels/);
    assert.doesNotMatch(d.stderr, /internal error|RangeError/);
  });

  test('grade writes every case of a result larger than one text the core reads (maxTextBytes lowered to 1 MiB here)', async () => {
    const root = join(work, 'large');
    mkdirSync(root, { recursive: true });
    const n = 600;
    const text = (t) => ({ role: 'model', parts: [{ text: t }] });
    writeFileSync(join(root, 'big.json'), JSON.stringify({
      eval_cases: Array.from({ length: n }, (_, i) => ({
        eval_case_id: `case_${i}`,
        prompt: { role: 'user', parts: [{ text: `What is the capital of France? (${i})` }] },
        responses: [{ response: text('The capital of France is Paris.') }],
        reference: { response: text(i % 10 === 0 ? 'Lyon' : 'The capital of France is Paris.') },
      })),
    }));
    // 35,000 cases make a result of 150 MiB, over the 128 Mi UTF-16 units a text may have on its
    // way into the core; here the core's own limit is lowered in the CLI's process instead.
    const hook = join(root, 'limits.mjs');
    writeFileSync(hook, `import { setLimits } from ${JSON.stringify(join(PKG, 'index.js'))};\nsetLimits({ maxTextBytes: 1024 * 1024 });\n`);
    const r = await new Promise((done, reject) => {
      const child = spawn(process.execPath, ['--import', hook, BIN, 'grade', 'big.json', '--metrics', 'response_match_score', '--output', 'out'],
        { cwd: root, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('error', reject);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
    assert.equal(r.code, 1, `60 cases fail their reference: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /too_large|internal error/);
    assert.match(r.stdout, /response_match_score:\n {2}num_cases_total: 600\n {2}num_cases_valid: 600\n[\s\S]*pass_rate: 0\.9000/);
    const files = readdirSync(join(root, 'out')).sort();
    assert.deepEqual(files.map((f) => f.replace(/\d{8}_\d{6}/, 'T')), ['results_T.html', 'results_T.json']);
    const json = readFileSync(join(root, 'out', files[1]));
    assert.ok(json.byteLength > 2 * 1024 * 1024, `${json.byteLength} bytes: over twice the limit`);
    assert.equal(json.toString('utf8'), `${JSON.stringify(JSON.parse(json), null, 2)}\n`, 'written a case at a time, as JSON.stringify writes it');
    const result = ec.loadEvalSetResult(json);
    assert.deepEqual(result.eval_case_results.map((c) => c.eval_id), Array.from({ length: n }, (_, i) => `case_${i}`));
    assert.equal(result.eval_case_results.filter((c) => c.final_eval_status === 'FAILED').length, 60);
    const html = readFileSync(join(root, 'out', files[0]), 'utf8');
    assert.equal((html.match(/<tr><td>case_/g) ?? []).length, n, 'the HTML report has every case');
  });

  test('grade --dry_run counts the calls its judged metrics would make (as planJudgeCalls does) and sends none', async () => {
    const root = project('dry', GRADE_CONFIG);
    server.script(() => ({ status: 500 }));
    const r = await cli(['grade', '--judge', 'openai:judge-m', '--judge_base_url', `${server.baseUrl}/v1`, '--dry_run'], { cwd: root });
    assert.equal(server.requests.length, 0, 'nothing sent');
    assert.match(r.stderr, /^ {2}dry_run x\d+ \(multi_turn_task_success, helpfulness\)/m);
    const { config } = readConfig(join(root, 'tests', 'eval', 'eval_config.yaml'));
    let planned = 0;
    for (const name of ['traces_1.json', 'traces_2.json']) {
      const d = ec.loadEvaluationDataset(readFileSync(join(root, 'artifacts', 'traces', name)));
      for (const id of d.grading) {
        const evalCase = d.eval_set.eval_cases.find((c) => c.eval_id === id);
        planned += (await ec.planJudgeCalls({ evalCase, actual: d.actual[id], config, judge: judgeFor() })).count;
      }
    }
    assert.ok(planned > 0);
    assert.match(r.stderr, new RegExp(`^dry run: ${planned} judge call\\(s\\) would be sent \\(about [1-9]\\d* prompt tokens\\)`, 'm'));
  });

  test('eval runs an inference dataset through an agent module with the project\'s config', async () => {
    const root = project('inference', 'metrics_to_run:\n  - response_match_score\n  - safety\n');
    writeFileSync(join(root, 'agent.mjs'), "export const agent = (turn) => turn.text.includes('capital') ? 'The capital of France is Paris.' : 'I can help with the weather.';\n");
    server.script(() => ({ text: '{"is_the_agent_response_valid": "valid"}' }));
    const r = await cli(['eval', 'agent.mjs', 'tests/eval/datasets/basic-dataset.json', '--metrics', 'response_match_score,safety',
      '--judge', 'gemini:judge-m', '--judge_base_url', `${server.baseUrl}/v1beta`, '--no_save'], { cwd: root });
    assert.match(r.stdout, /'response_match_score': BaseCriterion\(threshold=1\.0/);
    assert.match(r.stdout, /basic-dataset:\n {2}Tests passed: 1\n {2}Tests failed: 2/, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.code, 1);
    assert.ok(server.requests.length >= 3, 'safety judged every case');
  });

  test('metrics lists every name, with the hosted ones judged', async () => {
    const r = await cli(['metrics']);
    assert.equal(r.code, 0);
    for (const n of ['multi_turn_task_success ', 'multi_turn_tool_use_quality_v1 ', 'response_evaluation_score ', 'final_response_quality ']) {
      assert.match(r.stdout, new RegExp(`^${n}\\s+judged`, 'm'));
    }
    assert.match(r.stdout, /^response_evaluation_score\s+judged\s+1\.\.5/m);
    const j = JSON.parse((await cli(['metrics', '--json'])).stdout);
    assert.deepEqual(j.metrics, ec.metricsInfo());
  });
});
