// A weather agent built with the OpenAI Agents SDK, as teams write one: an `Agent` with function
// tools that hands trips off to a travel agent. Its models are scripted (scripted_model.mjs),
// served by the runner's model provider under the names the agents give.
//
//   agent           fromOpenAIAgents(weatherAgent): what `npx evalcore eval agent.mjs openai_agents.evalset.json` runs
//   makeAgent(...)  the same with a slower get_weather or a streamed run (for the tests)
import { Agent, tool } from '@openai/agents';
import { fromOpenAIAgents } from 'evalcore/adapters';
import { z } from 'zod';
import { ScriptedModel, scriptedProvider } from './scripted_model.mjs';
import {
  INSTRUCTIONS, TRAVEL_INSTRUCTIONS, convertTemperature, getWeather, travelPolicy, weatherPolicy,
} from '../weather/weather.mjs';

export const modelProvider = scriptedProvider({
  'scripted-weather-1': new ScriptedModel((history) => weatherPolicy(history, { handoff: 'transfer_to_travel_agent', handoffArgs: () => ({}) })),
  'scripted-travel-1': new ScriptedModel(travelPolicy),
});

export function makeAgents({ toolDelayMs = 0 } = {}) {
  const getWeatherTool = tool({
    name: 'get_weather',
    description: 'The current weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: (input, _context, details) => getWeather(input, { delayMs: toolDelayMs, signal: details?.signal }),
    // What the model is told when the tool throws: the SDK's default text carries the error's
    // message in 0.14 and leaves it out from 0.15 on, so the app says what failed itself.
    errorFunction: (_context, error) => `An error occurred while running the tool. Error: ${error instanceof Error ? error.message : String(error)}`,
  });
  const convertTemperatureTool = tool({
    name: 'convert_temperature',
    description: 'Convert a Celsius temperature to Fahrenheit (F) or Kelvin (K)',
    parameters: z.object({ celsius: z.number(), to: z.enum(['F', 'K']) }),
    execute: async (input) => convertTemperature(input),
  });
  const travelAgent = new Agent({
    name: 'travel_agent', instructions: TRAVEL_INSTRUCTIONS, model: 'scripted-travel-1', tools: [getWeatherTool],
  });
  const weatherAgent = new Agent({
    name: 'weather_agent', instructions: INSTRUCTIONS, model: 'scripted-weather-1',
    tools: [getWeatherTool, convertTemperatureTool], handoffs: [travelAgent],
  });
  return { weatherAgent, travelAgent };
}

export function makeAgent({ toolDelayMs = 0, stream = false } = {}) {
  return fromOpenAIAgents(makeAgents({ toolDelayMs }).weatherAgent, {
    runConfig: { modelProvider, tracingDisabled: true },
    runOptions: stream ? { stream: true } : {},
  });
}

export const agent = makeAgent();
export default agent;
