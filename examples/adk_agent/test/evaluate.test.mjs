// The whole eval set through evalcore's `evaluate` (and `AgentEvaluator`) with the real ADK agent:
// the core turns each turn's ADK events into ADK invocations and scores them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import * as adk from '@google/adk';
import { evaluate, loadEvalConfig, loadEvalSet } from 'evalcore';
import { fromAdkAgent } from 'evalcore/adk';
import { AgentEvaluator } from 'evalcore/testing';
import { agent, rootAgent } from '../agent.mjs';
import { MODEL_VERSION } from '../scripted_model.mjs';
import { rollFrom } from '../tools.mjs';

adk.setLogLevel(adk.LogLevel.ERROR);

const here = (name) => fileURLToPath(new URL(`../${name}`, import.meta.url));
const evalSet = loadEvalSet(readFileSync(here('adk_agent.evalset.json'), 'utf8'));
const config = loadEvalConfig(readFileSync(here('test_config.json'), 'utf8'));

const metric = (result, name) => result.overall_eval_metric_results.find((m) => m.metric_name === name);
const byId = (setResult) => Object.fromEntries(setResult.eval_case_results.map((r) => [r.eval_id, r]));
const eventsOf = (inv) => inv.intermediate_data.invocation_events;
const callsOf = (inv) => eventsOf(inv).flatMap((e) => (e.content?.parts ?? []).filter((p) => p.function_call).map((p) => p.function_call));

test('evaluate: every case passes with trajectory and response match 1.0', async () => {
  const result = await evaluate({ evalSet, agent, config });
  assert.equal(result.eval_set_id, 'adk_agent');
  const cases = byId(result);
  assert.deepEqual(Object.keys(cases).sort(), ['check_listed_primes', 'greet_roll_then_check', 'roll_d6']);
  for (const [id, r] of Object.entries(cases)) {
    assert.equal(r.final_eval_status, 'PASSED', `${id}: ${JSON.stringify(r.overall_eval_metric_results)}`);
    assert.equal(metric(r, 'tool_trajectory_avg_score').score, 1, id);
    assert.equal(metric(r, 'response_match_score').score, 1, id);
  }
});

test('evaluate: the actual invocations are ADK\'s, built from the adapter\'s events', async () => {
  const result = await evaluate({ evalSet, agent, config, evalIds: ['greet_roll_then_check'] });
  const [r] = result.eval_case_results;
  const turns = r.eval_metric_result_per_invocation.map((p) => p.actual_invocation);
  assert.equal(turns.length, 3);
  const roll = rollFrom(5, 10).roll;

  assert.deepEqual(turns.map((inv) => inv.user_content.parts[0].text),
    ['Hi, who are you?', 'Roll a 10-sided die.', 'Is the result prime?']);
  assert.deepEqual(turns.map((inv) => inv.final_response.parts[0].text), [
    'I am hello_world_agent. I can roll dice of any size and check whether numbers are prime.',
    `I rolled a ${roll} for you.`,
    `${roll} is a prime number.`,
  ]);
  assert.deepEqual(turns.map((inv) => callsOf(inv).map((c) => [c.name, c.args])),
    [[], [['roll_die', { sides: 10 }]], [['check_prime', { nums: [roll] }]]]);

  const second = eventsOf(turns[1]);
  // call, tool response, and the final answer whose content ADK nulls but whose usage it keeps.
  assert.equal(second.length, 3);
  assert.equal(second[1].content.parts[0].function_response.response.result, roll);
  assert.equal(second[2].content, null);
  assert.equal(second[2].model_version, MODEL_VERSION);
  assert.ok(second[2].usage_metadata.total_token_count > 0);
  for (const inv of turns) {
    assert.match(inv.invocation_id, /^e-/);
    assert.deepEqual(Object.keys(inv.app_details.agent_details), ['hello_world_agent']);
    const decls = inv.app_details.agent_details.hello_world_agent.tool_declarations[0].function_declarations;
    assert.deepEqual(decls.map((d) => d.name), ['roll_die', 'check_prime']);
  }

  // ADK's always-on efficiency metrics see the model calls the scripted model reported.
  assert.equal(metric(r, 'tool_call_count_v1').score, 2 / 3);
  assert.equal(metric(r, 'inference_call_count_v1').score, 5 / 3);
  assert.ok(metric(r, 'token_usage_v1').score > 0);
});

test('evaluate: each run is a fresh session, so a seeded case repeats exactly', async () => {
  const sessionService = new adk.InMemorySessionService();
  const created = [];
  const createSession = sessionService.createSession.bind(sessionService);
  sessionService.createSession = (req) => {
    created.push(req);
    return createSession(req);
  };
  const wrapped = fromAdkAgent(rootAgent, { sessionService });
  const result = await evaluate({ evalSet, agent: wrapped, config, numRuns: 2 });
  assert.equal(result.eval_case_results.length, 6);
  assert.ok(result.eval_case_results.every((r) => r.final_eval_status === 'PASSED'));
  // One session per case and run (the three-turn case reuses its session), each with the case's state.
  assert.equal(created.length, 6);
  assert.equal(new Set(created.map((c) => c.sessionId)).size, 6);
  assert.deepEqual(created.map((c) => c.state.rng_seed).sort((a, b) => a - b), [1, 1, 5, 5, 42, 42]);
  assert.ok(created.every((c) => c.appName === 'hello_world' && c.userId === 'user'));
});

test('evaluate: an expectation the agent does not meet fails the case', async () => {
  const changed = structuredClone(evalSet);
  const roll = changed.eval_cases.find((c) => c.eval_id === 'roll_d6');
  roll.conversation[0].intermediate_data.tool_uses[0].args.sides = 20;
  const result = await evaluate({ evalSet: changed, agent, config, evalIds: ['roll_d6'] });
  const [r] = result.eval_case_results;
  assert.equal(r.final_eval_status, 'FAILED');
  assert.equal(metric(r, 'tool_trajectory_avg_score').score, 0);
  assert.equal(metric(r, 'response_match_score').score, 1);
});

test('AgentEvaluator: the example folder passes as ADK\'s pytest helper would check it', async () => {
  const results = await AgentEvaluator.evaluate(rootAgent, here('adk_agent.evalset.json'), { numRuns: 2 });
  assert.equal(results.length, 1);
  assert.equal(results[0].eval_case_results.length, 6);
});
