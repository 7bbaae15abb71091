// A weather agent built with the Vercel AI SDK, as teams write one: `generateText` with tools, a
// step limit, and a travel agent as a sub-agent (a tool whose `execute` runs a second
// `generateText`). Its models are scripted (scripted_model.mjs), so it runs without a key.
//
//   agent           fromAiSdk over generateText: what `npx evalcore eval agent.mjs ai_sdk.evalset.json` runs
//   streamingAgent  the same agent over streamText
//   makeAgent(...)  either, with a slower get_weather (for the abort tests)
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { fromAiSdk } from 'evalcore/adapters';
import { z } from 'zod';
import { scriptedModel } from './scripted_model.mjs';
import {
  INSTRUCTIONS, TRAVEL_INSTRUCTIONS, convertTemperature, getWeather, travelPolicy, weatherPolicy,
} from '../weather/weather.mjs';

export const weatherModel = scriptedModel('scripted-weather-1', (history) => weatherPolicy(history, { handoff: 'ask_travel_agent' }));
export const travelModel = scriptedModel('scripted-travel-1', travelPolicy);

/** The tools of one run; the sub-agent passes the run's telemetry and abort signal on. */
export function weatherTools({ telemetry, toolDelayMs = 0 } = {}) {
  const get_weather = tool({
    description: 'The current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: (input, { abortSignal }) => getWeather(input, { delayMs: toolDelayMs, signal: abortSignal }),
  });
  const convert_temperature = tool({
    description: 'Convert a Celsius temperature to Fahrenheit (F) or Kelvin (K)',
    inputSchema: z.object({ celsius: z.number(), to: z.enum(['F', 'K']) }),
    execute: async (input) => convertTemperature(input),
  });
  const ask_travel_agent = tool({
    description: 'Ask the travel agent about a trip: what to pack, when to go',
    inputSchema: z.object({ request: z.string() }),
    execute: async ({ request }, { abortSignal }) => {
      const { text } = await generateText({
        model: travelModel, system: TRAVEL_INSTRUCTIONS, prompt: request, tools: { get_weather },
        stopWhen: stepCountIs(4), abortSignal, experimental_telemetry: telemetry,
      });
      return { advice: text };
    },
  });
  return { get_weather, convert_temperature, ask_travel_agent };
}

export function makeAgent({ stream = false, toolDelayMs = 0 } = {}) {
  const call = stream ? streamText : generateText;
  return fromAiSdk(({ messages, signal, telemetry }) => call({
    model: weatherModel,
    system: INSTRUCTIONS,
    messages,
    tools: weatherTools({ telemetry, toolDelayMs }),
    stopWhen: stepCountIs(5),
    abortSignal: signal,
    experimental_telemetry: telemetry,
  }), { author: 'weather_agent' });
}

export const agent = makeAgent();
export const streamingAgent = makeAgent({ stream: true });
export default agent;
