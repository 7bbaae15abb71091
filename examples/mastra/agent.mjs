// A weather agent built with Mastra, as teams write one: an `Agent` with `createTool` tools and
// a travel agent as its sub-agent (Mastra offers the agents it is given as tools). Its models
// are the AI SDK's mock model, scripted (scripted_model.mjs).
//
//   agent           fromMastra(weatherAgent): what `npx evalcore eval agent.mjs mastra.evalset.json` runs
//   makeAgents(...) the agents, with a slower get_weather (for the tests)
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { fromMastra } from 'evalcore/adapters';
import { z } from 'zod';
import { scriptedModel } from './scripted_model.mjs';
import {
  INSTRUCTIONS, TRAVEL_INSTRUCTIONS, convertTemperature, getWeather, travelPolicy, weatherPolicy,
} from '../weather/weather.mjs';

/** The name Mastra gives the tool that runs the sub-agent `travelAgent`. */
export const TRAVEL_TOOL = 'agent-travelAgent';

// A tool's arguments and abort signal: Mastra 1.x calls `execute(input, { abortSignal, ... })`,
// 0.24 called `execute({ context: input, abortSignal, ... })`.
const argsOf = (input) => (input && typeof input === 'object' && 'context' in input ? input.context : input);
const signalOf = (input, options) => options?.abortSignal ?? input?.abortSignal;

export function makeAgents({ toolDelayMs = 0 } = {}) {
  const get_weather = createTool({
    id: 'get_weather',
    description: 'The current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async (input, options) => getWeather(argsOf(input), { delayMs: toolDelayMs, signal: signalOf(input, options) }),
  });
  const convert_temperature = createTool({
    id: 'convert_temperature',
    description: 'Convert a Celsius temperature to Fahrenheit (F) or Kelvin (K)',
    inputSchema: z.object({ celsius: z.number(), to: z.enum(['F', 'K']) }),
    execute: async (input) => convertTemperature(argsOf(input)),
  });
  const travelAgent = new Agent({
    id: 'travel_agent', name: 'travel_agent', instructions: TRAVEL_INSTRUCTIONS, model: scriptedModel('scripted-travel-1', travelPolicy), tools: { get_weather },
  });
  const weatherAgent = new Agent({
    id: 'weather_agent',
    name: 'weather_agent',
    instructions: INSTRUCTIONS,
    model: scriptedModel('scripted-weather-1', (history) => weatherPolicy(history, { handoff: TRAVEL_TOOL, handoffArgs: (prompt) => ({ prompt }) })),
    tools: { get_weather, convert_temperature },
    agents: { travelAgent },
  });
  // Registered in a Mastra instance, as an app does; its logger off (a failing tool is logged
  // as an error otherwise, and the eval set has one on purpose).
  const mastra = new Mastra({ agents: { weatherAgent, travelAgent }, logger: false });
  return { weatherAgent: mastra.getAgent('weatherAgent'), travelAgent: mastra.getAgent('travelAgent') };
}

export const makeAgent = (options) => fromMastra(makeAgents(options).weatherAgent, { generateOptions: { maxSteps: 5 } });
export const agent = makeAgent();
export default agent;
