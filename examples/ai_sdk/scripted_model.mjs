// A scripted model for the AI SDK: the mock model of `ai/test` (the AI SDK's own test model:
// `MockLanguageModelV4` in `ai` 7, whose providers implement the V4 model interface;
// `MockLanguageModelV3` in `ai` 6), whose answers come from a policy (../weather/weather.mjs)
// that reads the prompt the AI SDK built — the conversation, tool calls and tool results — like
// a real model would. It answers `generateText` (doGenerate) and `streamText` (doStream, through
// the AI SDK's `simulateReadableStream`) alike, and reports the same usage on every call (V3 and
// V4 share these result shapes).
import * as aiTest from 'ai/test';
import { historyOfPrompt } from '../weather/ai_sdk_prompt.mjs';
import { USAGE } from '../weather/weather.mjs';

const { simulateReadableStream } = aiTest;
const MockLanguageModel = aiTest.MockLanguageModelV4 ?? aiTest.MockLanguageModelV3;

let ids = 0;

/** A tool result in the prompt as the policy reads it: its value, or the error the tool threw. */
function resultOf(output) {
  if (output?.type === 'error-text') return { error: output.value };
  if (output?.type === 'error-json') return { error: JSON.stringify(output.value) };
  return { result: output?.value };
}

/** The prompt as the policy's entries. */
export const historyOf = (prompt) => historyOfPrompt(prompt, resultOf);

const usage = () => ({
  inputTokens: { total: USAGE.input, noCache: USAGE.input - USAGE.cached, cacheRead: USAGE.cached, cacheWrite: undefined },
  outputTokens: { total: USAGE.output, text: USAGE.output - USAGE.reasoning, reasoning: USAGE.reasoning },
});

/** The policy's decision as the parts of a model response. */
function contentOf(decision) {
  const content = [];
  if (decision.text) content.push({ type: 'text', text: decision.text });
  for (const call of decision.calls ?? []) {
    content.push({ type: 'tool-call', toolCallId: `call-${(ids += 1)}`, toolName: call.name, input: JSON.stringify(call.args) });
  }
  return content;
}

/** A mock model named `modelId` that answers with `policy(history)`. */
export function scriptedModel(modelId, policy) {
  const decide = (prompt) => {
    const content = contentOf(policy(historyOf(prompt)));
    const calls = content.some((p) => p.type === 'tool-call');
    return { content, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: calls ? 'tool_calls' : 'stop' } };
  };
  const response = () => ({ id: `resp-${(ids += 1)}`, modelId, timestamp: new Date(0) });
  return new MockLanguageModel({
    provider: 'scripted',
    modelId,
    doGenerate: async ({ prompt }) => ({ ...decide(prompt), usage: usage(), warnings: [], response: response() }),
    doStream: async ({ prompt }) => {
      const { content, finishReason } = decide(prompt);
      const chunks = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', ...response() }];
      for (const [i, part] of content.entries()) {
        if (part.type === 'text') {
          chunks.push({ type: 'text-start', id: `t${i}` }, { type: 'text-delta', id: `t${i}`, delta: part.text }, { type: 'text-end', id: `t${i}` });
        } else {
          chunks.push(part);
        }
      }
      chunks.push({ type: 'finish', finishReason, usage: usage() });
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
}
