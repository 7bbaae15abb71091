// Compiled by `tsc -p .` (npm test): evalcore's adapter types against the AI SDK's real ones.
// The turn's signal passes as `abortSignal`, the messages as `messages`, the telemetry as
// `experimental_telemetry`, and both results (generateText's, streamText's) are accepted.
import { generateText, stepCountIs, streamText, tool } from 'ai';
import type { Agent } from 'evalcore';
import { fromAiSdk, fromFunction } from 'evalcore/adapters';
import type { EventsReply, FunctionReply } from 'evalcore/adapters';
import { z } from 'zod';
import { weatherModel } from './agent.mjs';

const tools = {
  get_weather: tool({ description: 'weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: 'sunny' }) }),
};

export const generating = fromAiSdk(({ messages, signal, telemetry }) => generateText({
  model: weatherModel, messages, tools, stopWhen: stepCountIs(5), abortSignal: signal, experimental_telemetry: telemetry,
}), { author: 'weather_agent' });

export const streaming = fromAiSdk(({ messages, signal }) => streamText({ model: weatherModel, messages, tools, abortSignal: signal }));

// An evalcore Agent, and its reply's timings.
const asAgent: Agent = generating;
export const reply: Promise<EventsReply> = generating({
  evalSetId: 's', evalId: 'c', run: 0, turnIndex: 0, sessionId: 'x', userId: 'u', appName: 'a', state: {},
  userContent: { role: 'user', parts: [{ text: 'hi' }] }, text: 'hi', history: [],
});

// fromFunction around the AI SDK by hand: what a turn reports, typed.
export const byHand = fromFunction(async (text, turn): Promise<FunctionReply> => {
  const result = await generateText({ model: weatherModel, prompt: text, tools, abortSignal: turn.signal });
  return {
    text: result.text,
    steps: result.steps.map((s) => ({
      text: s.text,
      toolCalls: s.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, args: c.input as Record<string, never> })),
      usage: { inputTokens: s.usage.inputTokens, outputTokens: s.usage.outputTokens, reasoningTokens: s.usage.outputTokenDetails.reasoningTokens },
    })),
    model: result.response.modelId,
  };
});
export { asAgent };
