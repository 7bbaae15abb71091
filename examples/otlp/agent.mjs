// A dice agent written with the Vercel AI SDK: `generateText` with a tool and a step limit, its
// model the AI SDK's own mock (`MockLanguageModelV4` in `ai` 7, `MockLanguageModelV3` in 6)
// answering like a model would (a tool call when asked to roll, the roll's value after it). Its
// spans go to whatever OpenTelemetry tracer the app gives it (telemetry.mjs: in `ai` 7 through
// @ai-sdk/otel's integration, in `ai` 6 through the tracer itself). `conversation` keeps the
// messages of a session's turns.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import * as aiTest from 'ai/test';
import { sessionTelemetry } from './telemetry.mjs';

const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3;
const usage = { inputTokens: { total: 50, noCache: 45, cacheRead: 5, cacheWrite: undefined }, outputTokens: { total: 12, text: 12, reasoning: undefined } };
let calls = 0;

export const model = new MockLanguageModel({
  provider: 'scripted',
  modelId: 'mock-dice',
  doGenerate: async ({ prompt }) => {
    const last = prompt.at(-1);
    const result = last.role === 'tool' ? last.content.find((p) => p.type === 'tool-result') : undefined;
    const asked = [...prompt].reverse().find((m) => m.role === 'user')?.content.map((p) => p.text ?? '').join('') ?? '';
    const response = { id: `resp-${++calls}`, modelId: 'mock-dice-001', timestamp: new Date(0) };
    if (result) {
      return { content: [{ type: 'text', text: `You rolled a ${result.output.value.result}.` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [], response };
    }
    if (/roll/i.test(asked)) {
      const sides = Number(/(\d+)-sided/.exec(asked)?.[1] ?? 6);
      return { content: [{ type: 'tool-call', toolCallId: `call-${calls}`, toolName: 'roll_die', input: JSON.stringify({ sides, scale: 1.5 }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [], response };
    }
    return { content: [{ type: 'text', text: 'Hello! Ask me to roll a die.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [], response };
  },
});

export const tools = {
  roll_die: tool({
    description: 'Rolls a die with the given number of sides.',
    inputSchema: jsonSchema({ type: 'object', properties: { sides: { type: 'integer' }, scale: { type: 'number' } }, required: ['sides'] }),
    execute: async ({ sides }) => ({ result: sides === 6 ? 4 : sides - 1 }),
  }),
};

/** A session: each `turn(text)` runs the agent on the conversation so far, traced under `sessionId`. */
export function conversation(tracer, sessionId) {
  const messages = [];
  const telemetry = sessionTelemetry(tracer, { sessionId, userId: 'user-1', functionId: 'dice_agent' });
  return async function turn(text) {
    messages.push({ role: 'user', content: text });
    const r = await generateText({ model, tools, messages, stopWhen: stepCountIs(3), ...(await telemetry) });
    // `ai` 7 keeps every step's messages in `responseMessages`; 6 in `response.messages`.
    messages.push(...(r.responseMessages ?? r.response.messages));
    return r;
  };
}
