// Every *.evalset.json in this folder, scored with the test_config.json beside it; a metric
// under its threshold fails the test with a table of what missed.
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import { AgentEvaluator } from 'evalcore/testing';
import { agent } from '../agent.mjs';

const EVALS = fileURLToPath(new URL('.', import.meta.url));

test('the agent passes its eval sets', async () => {
  await AgentEvaluator.evaluate(agent, EVALS, { numRuns: 1 });
}, 120_000);
