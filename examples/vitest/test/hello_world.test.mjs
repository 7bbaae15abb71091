// ADK's AgentEvaluator in vitest: the hello_world example's eval cases, run twice each with the
// agent that replays recorded turns. A failing evaluation rejects with node:assert's
// AssertionError, which vitest reports with the evaluator's summary as the message.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentEvaluator } from 'evalcore/testing';
import { agent } from '../../hello_world/agent.mjs';

const EVAL_SET = fileURLToPath(new URL('../../hello_world/hello_world.evalset.json', import.meta.url));

describe('hello_world_agent', () => {
  it('greets, rolls and checks primes', async () => {
    const results = await AgentEvaluator.evaluate(agent, EVAL_SET, { evalIds: ['greeting', 'roll_and_check', 'roll_twice_then_check'] });
    expect(results[0].eval_case_results).toHaveLength(6); // 3 cases x 2 runs
  });

  it('fails check_listed_numbers: 9 is missing from its check_prime call', async () => {
    const run = AgentEvaluator.evaluate(agent, EVAL_SET, { evalIds: ['check_listed_numbers'] });
    await expect(run).rejects.toThrow(/tool_trajectory_avg_score +1 +0 +FAILED/);
    await expect(run).rejects.toMatchObject({ name: 'AssertionError', failures: ['tool_trajectory_avg_score for check_listed_numbers Failed. Expected 1.0, but got 0.0.'] });
  });
});
