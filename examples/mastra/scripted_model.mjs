// A scripted model inside Mastra: `MockLanguageModelV2` from `ai/test` (the AI SDK 5 test model;
// Mastra 0.24 runs AI SDK 5 models), whose answers come from a policy (../weather/weather.mjs)
// reading the prompt Mastra built — the conversation, tool calls and tool results — as a real
// model would, with the same usage on every call.
import { MockLanguageModelV2 } from 'ai/test';
import { historyOfPrompt } from '../weather/ai_sdk_prompt.mjs';
import { USAGE } from '../weather/weather.mjs';

let ids = 0;

/** A tool result in the prompt: its value, or the error Mastra wrapped (`TOOL_EXECUTION_FAILED`). */
function resultOf(output) {
  const value = output?.value;
  if (output?.type === 'error-text') return { error: value };
  if (value instanceof Error) return { error: value.message };
  if (value && typeof value === 'object' && value.code === 'TOOL_EXECUTION_FAILED') return { error: value.message };
  return { result: value };
}

/** The prompt as the policy's entries. */
export const historyOf = (prompt) => historyOfPrompt(prompt, resultOf);

/** A mock model named `modelId` that answers with `policy(history)`. */
export function scriptedModel(modelId, policy) {
  return new MockLanguageModelV2({
    provider: 'scripted',
    modelId,
    doGenerate: async ({ prompt }) => {
      const decision = policy(historyOf(prompt));
      const content = [];
      if (decision.text) content.push({ type: 'text', text: decision.text });
      for (const call of decision.calls ?? []) {
        content.push({ type: 'tool-call', toolCallId: `call-${(ids += 1)}`, toolName: call.name, input: JSON.stringify(call.args) });
      }
      return {
        content,
        finishReason: decision.calls?.length ? 'tool-calls' : 'stop',
        usage: {
          inputTokens: USAGE.input, outputTokens: USAGE.output, totalTokens: USAGE.input + USAGE.output,
          reasoningTokens: USAGE.reasoning, cachedInputTokens: USAGE.cached,
        },
        warnings: [],
        response: { id: `resp-${(ids += 1)}`, modelId, timestamp: new Date(0) },
      };
    },
  });
}
