// Compiled by `tsc -p .` (npm test): evalcore's adapter types against the OpenAI Agents SDK's
// real ones. An Agent, a Runner config and run options pass as they are.
import { Agent, run, tool } from '@openai/agents';
import type { Agent as EvalAgent } from 'evalcore';
import { fromFunction, fromOpenAIAgents } from 'evalcore/adapters';
import { z } from 'zod';
import { modelProvider } from './agent.mjs';

const weather = tool({ name: 'get_weather', description: 'weather', parameters: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
const refunds = new Agent({ name: 'refunds', instructions: 'Refunds.', model: 'scripted-travel-1' });
const triage = new Agent({ name: 'triage', instructions: 'Triage.', model: 'scripted-weather-1', tools: [weather], handoffs: [refunds] });

export const adapted: EvalAgent = fromOpenAIAgents(triage, {
  runConfig: { modelProvider, tracingDisabled: true, workflowName: 'evals' },
  runOptions: { maxTurns: 8, context: { userId: 'u' } },
  continueWith: 'lastAgent',
});

// By hand: the turn's signal passes to the SDK's `run` as it is.
export const byHand = fromFunction(async (text, turn) => {
  const result = await run(triage, text, { signal: turn.signal });
  return { text: String(result.finalOutput ?? ''), model: 'scripted-weather-1' };
});
