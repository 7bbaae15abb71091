// evaluate() with conversation_scenario cases: the simulated user (SPEC §1.8, §2.6, §4.2) is an
// LLM reached through the judge, here the loopback judge server in scripted mode (OpenAI wire).
// The server tells simulator prompts ("You play the USER") from per-turn quality prompts ("You
// check one message written by a simulated user") and answers each from its own script, so the
// conversation the agent sees and the per_turn_user_simulator_quality_v1 verdicts (SPEC §3.13)
// are fully determined by the test.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import * as ec from '../../pkg/index.js';
import { requestText, startJudgeServer } from './support/judge-server.mjs';

const U = (text) => ({ role: 'user', parts: [{ text }] });
const M = (text) => ({ role: 'model', parts: [{ text }] });
const textOf = (content) => (content?.parts ?? []).map((p) => p.text).filter((t) => t).join('\n');

const START = 'I would like to book a table for two.';
const PLAN = 'Book a table for two at 7pm. Confirm the time, then thank the agent and finish.';
const SCENARIO = { starting_prompt: START, conversation_plan: PLAN };
const scenarioSet = (scenario = SCENARIO, extra = []) => ({
  eval_set_id: 'sim',
  eval_cases: [{ eval_id: 'booking', conversation_scenario: scenario }, ...extra],
});
const QUALITY = (threshold = 0.5, numSamples = 1) => ({
  criteria: { per_turn_user_simulator_quality_v1: { threshold, judge_model_options: { num_samples: numSamples } } },
});

let server;
let work;
let sim; // { answers: [...], prompts: [...] } for simulator requests
let quality; // { answer: (generatedMessage, prompt) => reply, prompts: [...] }
before(async () => {
  server = await startJudgeServer();
  work = mkdtempSync(join(tmpdir(), 'evalcore-run-sim-'));
});
after(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => {
  sim = { answers: [], prompts: [] };
  quality = { answer: () => ({ status: 400, error: 'no quality verdict scripted' }), prompts: [] };
  server.script((req) => {
    const text = requestText(req.wire, req.body);
    if (text.includes('You play the USER')) {
      sim.prompts.push(text);
      return sim.answers.length > 0 ? sim.answers.shift() : { status: 400, error: 'simulator script exhausted' };
    }
    if (text.includes('You check one message written by a simulated user')) {
      quality.prompts.push(text);
      const generated = /<generated_user_message>\n([\s\S]*?)\n<\/generated_user_message>/.exec(text)?.[1];
      return quality.answer(generated, text);
    }
    return { status: 400, error: `unexpected judge request: ${text.slice(0, 100)}` };
  });
});

const judge = (extra = {}) => ({ provider: 'openai', model: 'sim-m', baseUrl: `${server.baseUrl}/v1`, retryInitialDelayMs: 1, retryMaxDelayMs: 5, ...extra });
const VALID = (v) => `{"criteria": [{"name": "follows plan", "reasoning": "ok", "passes": ${v}}], "is_valid": ${v ? 'True' : 'False'}}`;

/** An agent that logs turns and answers "agent reply <n>". */
function logAgent() {
  const turns = [];
  const agent = (t) => {
    turns.push(t);
    return `agent reply ${t.turnIndex}`;
  };
  return { turns, agent };
}

describe('simulated user: the conversation', () => {
  test('without a judge a scenario case is FAILED needs_judge; static cases still run', async () => {
    const { turns, agent } = logAgent();
    const res = await ec.evaluate({
      evalSet: scenarioSet(SCENARIO, [{ eval_id: 'static', conversation: [{ user_content: U('hi'), final_response: M('agent reply 0') }] }]),
      agent,
    });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.booking.final_eval_status, 'FAILED');
    assert.equal(r.booking.error.code, 'needs_judge');
    assert.match(r.booking.error.message, /judge/);
    assert.equal(r.static.final_eval_status, 'PASSED');
    assert.deepEqual(turns.map((t) => t.evalId), ['static']);
  });

  test('the first turn is the starting prompt verbatim; later turns are the model\'s messages; </finished> stops', async () => {
    sim.answers = ['  At 7pm, please.\n', 'Yes, 7pm works.', 'Perfect, thank you! </finished>'];
    const { turns, agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge() });
    assert.deepEqual(turns.map((t) => t.text), [START, 'At 7pm, please.', 'Yes, 7pm works.']);
    assert.deepEqual(turns.map((t) => t.turnIndex), [0, 1, 2]);
    assert.deepEqual(turns.map((t) => t.history.length), [0, 1, 2]);
    assert.deepEqual(turns[0].userContent, U(START));
    assert.equal(sim.prompts.length, 3, 'one simulator call per turn after the first, the last one says stop');
    assert.equal(sim.answers.length, 0);
    const r = res.eval_case_results[0];
    assert.equal(r.error, undefined);
    assert.equal(r.eval_metric_result_per_invocation.length, 3);
    for (const [i, p] of r.eval_metric_result_per_invocation.entries()) {
      assert.equal(p.expected_invocation, null, 'scenario cases have no expected invocations');
      assert.equal(textOf(p.actual_invocation.user_content), turns[i].text);
      assert.equal(textOf(p.actual_invocation.final_response), `agent reply ${i}`);
    }
    // ADK's default criteria need expected invocations: nothing evaluable → NOT_EVALUATED (SPEC §7.8).
    assert.equal(r.final_eval_status, 'NOT_EVALUATED');
    assert.ok(res.judge_stats.sent >= 3);
  });

  test('the starting prompt is sent verbatim, whitespace included', async () => {
    sim.answers = ['</finished>'];
    const { turns, agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet({ ...SCENARIO, starting_prompt: '  Hello?\n' }), agent, judge: judge() });
    assert.deepEqual(turns.map((t) => t.text), ['  Hello?\n']);
  });

  test('the stop signal is matched case-insensitively, anywhere in the message', async () => {
    for (const stop of ['</FINISHED>', 'Thanks, that is all. </Finished>', '</finished>\n']) {
      sim.answers = ['At 7pm.', stop, 'never asked'];
      sim.prompts = [];
      const { turns, agent } = logAgent();
      await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge() });
      assert.deepEqual(turns.map((t) => t.text), [START, 'At 7pm.'], JSON.stringify(stop));
      assert.equal(sim.prompts.length, 2);
    }
  });

  test('the simulator prompt carries the plan and the transcript of the conversation so far', async () => {
    sim.answers = ['At 7pm, please.', '</finished>'];
    const { agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge() });
    assert.equal(sim.prompts.length, 2);
    for (const p of sim.prompts) {
      assert.ok(p.includes(PLAN), 'the plan');
      assert.ok(p.includes('</finished>'), 'the stop signal');
    }
    assert.ok(sim.prompts[0].includes(`user: ${START}`));
    assert.ok(sim.prompts[0].includes('agent reply 0'));
    assert.ok(!sim.prompts[0].includes('agent reply 1'));
    const second = sim.prompts[1];
    const order = [`user: ${START}`, 'agent reply 0', 'user: At 7pm, please.', 'agent reply 1'].map((s) => second.indexOf(s));
    assert.ok(order.every((i) => i >= 0), `transcript lines missing: ${order}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in conversation order');
  });

  test('user_simulator_config.max_allowed_invocations bounds the conversation (it counts the starting prompt)', async () => {
    sim.answers = ['more 1', 'more 2', 'more 3', 'more 4'];
    const { turns, agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {}, user_simulator_config: { max_allowed_invocations: 2 } } });
    assert.deepEqual(turns.map((t) => t.text), [START, 'more 1']);
    assert.equal(sim.prompts.length, 1, 'no simulator call once the limit is reached');
  });

  test('max_allowed_invocations: camelCase, type llm_backed, and 1 (only the starting prompt)', async () => {
    sim.answers = ['more 1', 'more 2'];
    let { turns, agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {}, userSimulatorConfig: { type: 'llm_backed', maxAllowedInvocations: 3 } } });
    assert.deepEqual(turns.map((t) => t.text), [START, 'more 1', 'more 2']);
    sim.answers = ['never'];
    sim.prompts = [];
    ({ turns, agent } = logAgent());
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {}, user_simulator_config: { max_allowed_invocations: 1 } } });
    assert.deepEqual(turns.map((t) => t.text), [START]);
    assert.equal(sim.prompts.length, 0);
  });

  test('the default limit is 20 invocations; -1 means unlimited', async () => {
    sim.answers = Array.from({ length: 30 }, (_, i) => `message ${i + 2}`);
    let { turns, agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {} } });
    assert.equal(turns.length, 20);
    assert.equal(sim.prompts.length, 19);
    sim.answers = [...Array.from({ length: 24 }, (_, i) => `message ${i + 2}`), '</finished>'];
    sim.prompts = [];
    ({ turns, agent } = logAgent());
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {}, user_simulator_config: { max_allowed_invocations: -1 } } });
    assert.equal(turns.length, 25);
  });

  test('an empty simulator reply fails the case with simulator_error; other cases complete', async () => {
    sim.answers = ['At 7pm.', '   \n  '];
    const { turns, agent } = logAgent();
    const res = await ec.evaluate({
      evalSet: scenarioSet(SCENARIO, [{ eval_id: 'static', conversation: [{ user_content: U('hi'), final_response: M('agent reply 0') }] }]),
      agent,
      judge: judge(),
      concurrency: 1,
    });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.booking.final_eval_status, 'FAILED');
    assert.equal(r.booking.error.code, 'simulator_error');
    assert.match(r.booking.error.message, /empty/);
    assert.match(r.booking.error.message, /turn 3/);
    assert.deepEqual(turns.filter((t) => t.evalId === 'booking').map((t) => t.text), [START, 'At 7pm.']);
    assert.equal(r.static.final_eval_status, 'PASSED');
  });

  test('a judge error on the simulator\'s call fails the case with simulator_error naming the HTTP status', async () => {
    sim.answers = [{ status: 401, error: 'invalid api key' }];
    const { agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge({ maxRetries: 0 }) });
    const r = res.eval_case_results[0];
    assert.equal(r.final_eval_status, 'FAILED');
    assert.equal(r.error.code, 'simulator_error');
    assert.match(r.error.message, /401/);
  });

  test('an unknown simulator type fails scenario cases only', async () => {
    const { turns, agent } = logAgent();
    const res = await ec.evaluate({
      evalSet: scenarioSet(SCENARIO, [{ eval_id: 'static', conversation: [{ user_content: U('hi'), final_response: M('agent reply 0') }] }]),
      agent,
      judge: judge(),
      config: { criteria: { response_match_score: 0.5 }, user_simulator_config: { type: 'llm_video' } },
    });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.booking.final_eval_status, 'FAILED');
    assert.equal(r.booking.error.code, 'invalid_config');
    assert.match(r.booking.error.message, /llm_video/);
    assert.equal(r.static.final_eval_status, 'PASSED');
    assert.deepEqual(turns.map((t) => t.evalId), ['static']);
  });

  test('an llm_audio simulator loads, and its scenario cases are NOT_EVALUATED (unsupported)', async () => {
    const { turns, agent } = logAgent();
    const res = await ec.evaluate({
      evalSet: scenarioSet(SCENARIO, [{ eval_id: 'static', conversation: [{ user_content: U('hi'), final_response: M('agent reply 0') }] }]),
      agent,
      judge: judge(),
      config: { criteria: { response_match_score: 0.5 }, user_simulator_config: { type: 'llm_audio', audio_model: 'cloud_tts' } },
    });
    const r = Object.fromEntries(res.eval_case_results.map((x) => [x.eval_id, x]));
    assert.equal(r.booking.final_eval_status, 'NOT_EVALUATED');
    assert.equal(r.booking.error.code, 'unsupported');
    assert.match(r.booking.error.message, /audio simulation needs a live audio model/);
    assert.equal(r.static.final_eval_status, 'PASSED');
    assert.deepEqual(turns.map((t) => t.evalId), ['static'], 'the audio case never reached the agent');
    assert.equal(sim.prompts.length, 0, 'and the simulated user was never asked');
  });

  test('a persona object is given to the simulated user', async () => {
    sim.answers = ['</finished>'];
    const persona = { id: 'terse', description: 'A terse user who writes in lowercase (persona-marker-91)', behaviors: [] };
    const { agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet({ ...SCENARIO, user_persona: persona }), agent, judge: judge() });
    assert.equal(sim.prompts.length, 1);
    assert.ok(sim.prompts[0].includes('persona-marker-91'));
  });

  test('tool calls reach the transcript only with include_function_calls', async () => {
    const agent = () => ({ finalResponse: 'Booked.', toolCalls: [{ name: 'reserve_table_xyz', args: { people: 2 }, response: { ok: true } }] });
    sim.answers = ['</finished>'];
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {} } });
    assert.ok(!sim.prompts[0].includes('reserve_table_xyz'));
    assert.ok(sim.prompts[0].includes('Booked.'));
    sim.answers = ['</finished>'];
    sim.prompts = [];
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {}, user_simulator_config: { include_function_calls: true } } });
    assert.ok(sim.prompts[0].includes('reserve_table_xyz'));
  });

  test('the transcript shows the agent\'s non-thought text only (SPEC §4.2)', async () => {
    const agent = () => ({
      events: [{ author: 'host', content: { role: 'model', parts: [{ text: 'PRIVATE-REASONING-77', thought: true }, { text: 'Your table is booked.' }] } }],
    });
    sim.answers = ['</finished>'];
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {} } });
    assert.equal(sim.prompts.length, 1);
    const history = /<conversation_history>\n([\s\S]*?)\n<\/conversation_history>/.exec(sim.prompts[0])?.[1];
    assert.ok(!history.includes('PRIVATE-REASONING-77'), `thought text leaked into the simulated user's transcript:\n${history}`);
    assert.ok(history.includes('host: Your table is booked.'), history);
  });

  test('the transcript names the author of each text (multi-agent turn)', async () => {
    const agent = () => ({
      events: [
        { author: 'root', content: { role: 'model', parts: [{ function_call: { name: 'transfer_to_agent', args: { agent_name: 'booker' } } }] } },
        { author: 'root', content: { role: 'user', parts: [{ function_response: { name: 'transfer_to_agent', response: {} } }] } },
        { author: 'booker', content: M('Booked for 7pm.') },
      ],
    });
    sim.answers = ['</finished>'];
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: { criteria: {} } });
    const history = /<conversation_history>\n([\s\S]*?)\n<\/conversation_history>/.exec(sim.prompts[0])?.[1];
    assert.ok(history.includes('booker: Booked for 7pm.'), `the final text is the sub-agent's, not root's:\n${history}`);
  });

  test('a recorded simulated conversation replays from the cassette with the server gone', async () => {
    const path = join(work, 'sim.cassette.json');
    sim.answers = ['At 7pm, please.', 'Thanks </finished>'];
    let { turns, agent } = logAgent();
    await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge({ cassette: { path, mode: 'record' } }), config: { criteria: {} } });
    const recorded = turns.map((t) => t.text);
    assert.deepEqual(recorded, [START, 'At 7pm, please.']);
    const dead = await startJudgeServer();
    const deadUrl = `${dead.baseUrl}/v1`;
    await dead.close();
    ({ turns, agent } = logAgent());
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: { ...judge({ cassette: { path, mode: 'replay' } }), baseUrl: deadUrl }, config: { criteria: {} } });
    assert.deepEqual(turns.map((t) => t.text), recorded);
    assert.equal(res.judge_stats.cassette_hits, 2);
    assert.equal(res.judge_stats.sent, 0);
    assert.equal(res.eval_case_results[0].error, undefined);
  });

  test('numRuns: each run simulates its own conversation', async () => {
    // Same transcript every run → the simulator answers may be reused; different agent answers → new calls.
    sim.answers = ['run A second', '</finished>', 'run B second', '</finished>'];
    const turns = [];
    const res = await ec.evaluate({
      evalSet: scenarioSet(),
      numRuns: 2,
      concurrency: 1,
      agent: (t) => { turns.push([t.run, t.text]); return `reply of run ${t.run} turn ${t.turnIndex}`; },
      judge: judge(),
      config: { criteria: {} },
    });
    assert.deepEqual(turns, [[0, START], [0, 'run A second'], [1, START], [1, 'run B second']]);
    assert.equal(res.run_summary.cases[0].eval_id, 'booking');
  });
});

describe('per_turn_user_simulator_quality_v1', () => {
  const conversation = () => { sim.answers = ['At 7pm, please.', 'Yes, for two people.', 'Thank you! </finished>']; };

  test('turn 1 from the starting prompt, later turns from is_valid verdicts, stop check judged too', async () => {
    conversation();
    const verdicts = { 'At 7pm, please.': true, 'Yes, for two people.': false, '</finished>': true };
    quality.answer = (g) => VALID(verdicts[g]);
    const { agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: QUALITY(0.5) });
    const r = res.eval_case_results[0];
    const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1');
    const per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => [c.score, c.eval_status]), [[1, 'PASSED'], [1, 'PASSED'], [0, 'FAILED']]);
    assert.equal(m.score, 2 / 3);
    assert.equal(m.eval_status, 'PASSED');
    assert.equal(r.final_eval_status, 'PASSED');
    // Turns 2..3 and the stop check were judged; turn 1 needs no call.
    assert.deepEqual(quality.prompts.map((p) => /<generated_user_message>\n([\s\S]*?)\n<\/generated_user_message>/.exec(p)[1]),
      ['At 7pm, please.', 'Yes, for two people.', '</finished>']);
    // The history given for turn 3 holds turns 1 and 2, not turn 3.
    const t3 = quality.prompts[1];
    assert.ok(t3.includes(`user: ${START}`) && t3.includes('agent reply 0') && t3.includes('user: At 7pm, please.') && t3.includes('agent reply 1'));
    assert.ok(!t3.includes('agent reply 2'));
    assert.ok(quality.prompts.every((p) => p.includes(PLAN)));
  });

  test('a failed stop check replaces the last turn\'s result', async () => {
    conversation();
    quality.answer = (g) => VALID(g !== '</finished>');
    const { agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: QUALITY(0.9) });
    const r = res.eval_case_results[0];
    const per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => c.eval_status), ['PASSED', 'PASSED', 'FAILED']);
    const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1');
    assert.equal(m.score, 2 / 3);
    assert.equal(m.eval_status, 'FAILED');
  });

  test('overall = Σ passed / turns: unjudgeable turns count in the denominator', async () => {
    conversation();
    quality.answer = (g) => (g === 'At 7pm, please.' ? 'I cannot decide.' : VALID(true));
    const { agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: QUALITY(0.5) });
    const r = res.eval_case_results[0];
    const per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => c.eval_status), ['PASSED', 'NOT_EVALUATED', 'PASSED']);
    assert.equal(r.overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1').score, 2 / 3);
  });

  test('num_samples 3: majority vote per turn, ties negative', async () => {
    conversation();
    const votes = { 'At 7pm, please.': [true, false, false], 'Yes, for two people.': [false, true, true], '</finished>': [true, true, false] };
    const seen = {};
    quality.answer = (g) => {
      const i = seen[g] ?? 0;
      seen[g] = i + 1;
      return VALID(votes[g][i]);
    };
    const { agent } = logAgent();
    const res = await ec.evaluate({ evalSet: scenarioSet(), agent, judge: judge(), config: QUALITY(0.5, 3) });
    const r = res.eval_case_results[0];
    const per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => c.score), [1, 0, 1]);
    assert.equal(quality.prompts.length, 9);
  });

  test('a static case cannot be scored by it (NOT_EVALUATED, the run completes)', async () => {
    const res = await ec.evaluate({
      evalSet: { eval_set_id: 's', eval_cases: [{ eval_id: 'static', conversation: [{ user_content: U('hi'), final_response: M('agent reply 0') }] }] },
      agent: logAgent().agent,
      judge: judge(),
      config: QUALITY(0.5),
    });
    const m = res.eval_case_results[0].overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1');
    assert.equal(m.eval_status, 'NOT_EVALUATED');
    assert.equal(quality.prompts.length, 0);
  });

  test('through evaluateInvocations: a first user turn that is not the starting prompt scores 0', async () => {
    quality.answer = () => VALID(true);
    const inv = (user, reply) => ({ user_content: U(user), final_response: M(reply), intermediate_data: { invocation_events: [] } });
    const base = { evalCase: { eval_id: 'sc', conversation_scenario: SCENARIO }, config: QUALITY(0.5), judge: judge() };
    let r = await ec.evaluateInvocations({ ...base, actual: [inv('Something else entirely', 'ok'), inv('At 7pm.', 'Booked.')] });
    let per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => [c.score, c.eval_status]), [[0, 'FAILED'], [1, 'PASSED']]);
    assert.equal(r.overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1').score, 0.5);
    // Surrounding whitespace does not matter (both sides stripped).
    r = await ec.evaluateInvocations({ ...base, actual: [inv(`\n  ${START}  `, 'ok')] });
    per = r.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1'));
    assert.deepEqual(per.map((c) => c.score), [1]);
    // Without a judge the metric is not evaluated.
    r = await ec.evaluateInvocations({ ...base, judge: undefined, actual: [inv(START, 'ok')] });
    const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'per_turn_user_simulator_quality_v1');
    assert.equal(m.eval_status, 'NOT_EVALUATED');
    assert.equal(m.details.reason, 'needs_judge');
  });
});
