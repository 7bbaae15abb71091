// ADK's hello_world sample agent in @google/adk for JS, with a scripted local model in place of
// Gemini. `rootAgent` is what `npx evalcore eval` loads; `agent` is the same agent as an evalcore
// Agent callback for `evaluate` and `AgentEvaluator`.
import { LlmAgent } from '@google/adk';
import { fromAdkAgent } from 'evalcore/adk';
import { ScriptedModel } from './scripted_model.mjs';
import { checkPrime, rollDie } from './tools.mjs';

export const INSTRUCTION = 'You roll dice and answer questions about the outcome of the dice rolls. '
  + 'You can roll dice of different sizes. When you are asked to roll a die, call the roll_die tool '
  + 'with the number of sides (an integer). When you are asked to check primes, call the check_prime '
  + 'tool with a list of integers; never decide primality yourself. When you are asked to roll a die '
  + 'and check primes, call roll_die first, then check_prime with the result. Answer in one or two '
  + 'short sentences.';

export const rootAgent = new LlmAgent({
  name: 'hello_world_agent',
  description: 'hello world agent that can roll a dice of any number of sides and check prime numbers.',
  model: new ScriptedModel(),
  instruction: INSTRUCTION,
  tools: [rollDie, checkPrime],
});

export const agent = fromAdkAgent(rootAgent);
