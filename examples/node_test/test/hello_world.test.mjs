// ADK's AgentEvaluator in node:test: each test runs eval cases of the hello_world example twice
// (numRuns defaults to 2, as in ADK) with the agent that replays recorded turns, and fails with
// an AssertionError that says which metric missed its threshold on which invocation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AgentEvaluator } from 'evalcore/testing';
import { agent } from '../../hello_world/agent.mjs';

// The eval set; test_config.json beside it sets the criteria.
const EVAL_SET = fileURLToPath(new URL('../../hello_world/hello_world.evalset.json', import.meta.url));

test('hello_world_agent greets, rolls and checks primes', async () => {
  await AgentEvaluator.evaluate(agent, EVAL_SET, { evalIds: ['greeting', 'roll_and_check', 'roll_twice_then_check'] });
});

test('check_listed_numbers fails: the agent left 9 out of its check_prime call', async () => {
  await assert.rejects(
    AgentEvaluator.evaluate(agent, EVAL_SET, { evalIds: ['check_listed_numbers'] }),
    (err) => {
      assert.equal(err.name, 'AssertionError');
      assert.match(err.message, /tool_trajectory_avg_score +1 +0 +FAILED/);
      assert.match(err.message, /expected_tool_calls: check_prime\(nums=\[4, 7, 9\]\)/);
      assert.match(err.message, /actual_tool_calls: +check_prime\(nums=\[4, 7\]\)/);
      return true;
    },
  );
});

test('every eval file under a folder: the whole example fails on that one case', async () => {
  const folder = fileURLToPath(new URL('../../hello_world/', import.meta.url));
  await assert.rejects(AgentEvaluator.evaluate(agent, folder), /1 of 4 eval cases failed in hello_world/);
});
