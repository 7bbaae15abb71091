// Compiled by `tsc -p .` (npm test): evalcore's adapter types against Mastra's real ones. A
// Mastra Agent and its generate options pass as they are.
import { Agent } from '@mastra/core/agent';
import type { Agent as EvalAgent } from 'evalcore';
import { fromFunction, fromMastra } from 'evalcore/adapters';
import { scriptedModel } from './scripted_model.mjs';

const agent = new Agent({ id: 'helper', name: 'helper', instructions: 'Help.', model: scriptedModel('m', () => ({ text: 'ok' })) });
export const adapted: EvalAgent = fromMastra(agent, { generateOptions: { maxSteps: 5 }, author: 'helper' });

// By hand: the turn's signal passes to generate as it is.
export const byHand = fromFunction(async (text, turn) => {
  const result = await agent.generate(text, { abortSignal: turn.signal });
  return { text: result.text, usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } };
});
