// A weather graph built with LangGraph.js, as teams write one: two `createReactAgent` agents in
// a `StateGraph`, the weather agent handing trips to the travel agent with a handoff tool (a
// `Command` to the parent graph, the pattern of langgraph-swarm's `createHandoffTool`), and a
// `MemorySaver` checkpointer keeping each conversation on its thread. Its models are LangChain's
// fake chat model, scripted (scripted_model.mjs).
//
//   agent           fromLangGraph(graph): what `npx evalcore eval agent.mjs langgraph.evalset.json` runs
//   makeGraph(...)  the graph, with a slower get_weather or without a checkpointer (for the tests)
import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, END, MemorySaver, MessagesAnnotation, START, StateGraph, getCurrentTaskInput } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { fromLangGraph } from 'evalcore/adapters';
import { z } from 'zod';
import { scriptedModel } from './scripted_model.mjs';
import {
  INSTRUCTIONS, TRAVEL_INSTRUCTIONS, convertTemperature, getWeather, travelPolicy, weatherPolicy,
} from '../weather/weather.mjs';

export function makeGraph({ toolDelayMs = 0, checkpointer = new MemorySaver() } = {}) {
  const getWeatherTool = tool(
    async (input, config) => JSON.stringify(await getWeather(input, { delayMs: toolDelayMs, signal: config?.signal })),
    { name: 'get_weather', description: 'The current weather in a city', schema: z.object({ city: z.string() }) },
  );
  const convertTemperatureTool = tool(
    async (input) => JSON.stringify(convertTemperature(input)),
    { name: 'convert_temperature', description: 'Convert a Celsius temperature to Fahrenheit (F) or Kelvin (K)', schema: z.object({ celsius: z.number(), to: z.enum(['F', 'K']) }) },
  );
  const transferToTravelAgent = tool(
    async (_input, config) => {
      const { messages } = getCurrentTaskInput();
      const done = new ToolMessage({ content: 'Transferred to travel_agent', name: 'transfer_to_travel_agent', tool_call_id: config.toolCall.id });
      return new Command({ goto: 'travel_agent', graph: Command.PARENT, update: { messages: [...messages, done] } });
    },
    { name: 'transfer_to_travel_agent', description: 'Hand trips and packing to the travel agent', schema: z.object({}) },
  );
  const weatherAgent = createReactAgent({
    name: 'weather_agent', prompt: INSTRUCTIONS,
    llm: scriptedModel('scripted-weather-1', (history) => weatherPolicy(history, { handoff: 'transfer_to_travel_agent', handoffArgs: () => ({}) })),
    tools: [getWeatherTool, convertTemperatureTool, transferToTravelAgent],
  });
  const travelAgent = createReactAgent({
    name: 'travel_agent', prompt: TRAVEL_INSTRUCTIONS, llm: scriptedModel('scripted-travel-1', travelPolicy), tools: [getWeatherTool],
  });
  return new StateGraph(MessagesAnnotation)
    .addNode('weather_agent', weatherAgent, { ends: ['travel_agent', END] })
    .addNode('travel_agent', travelAgent)
    .addEdge(START, 'weather_agent')
    .compile({ checkpointer: checkpointer ?? undefined });
}

export const graph = makeGraph();
export const agent = fromLangGraph(graph);
export default agent;
