// A scripted chat model for LangGraph: `fakeModel()` from `@langchain/core/testing` (LangChain's
// own fake tool-calling chat model), whose every answer is built by a policy
// (../weather/weather.mjs) from the messages it is invoked with — the conversation, tool calls
// and ToolMessages — as a real model would. Each answer queues the next one, so the model
// answers any number of calls; each carries the same `usage_metadata` and its model name.
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { USAGE } from '../weather/weather.mjs';

let ids = 0;

const text = (content) => (typeof content === 'string' ? content
  : (Array.isArray(content) ? content : []).map((b) => (typeof b === 'string' ? b : b.text ?? '')).join(''));

/** A ToolMessage as the policy reads it: its JSON value, or the error ToolNode reported. */
function resultOf(m) {
  const raw = text(m.content);
  if (m.status === 'error') return { error: /^Error: (.*?)\n Please fix your mistakes\.$/s.exec(raw)?.[1] ?? raw };
  try {
    return { result: JSON.parse(raw) };
  } catch {
    return { result: raw };
  }
}

/** LangChain messages as the policy's entries. */
export function historyOf(messages) {
  return messages.flatMap((m) => {
    switch (m.getType()) {
      case 'human': return [{ role: 'user', text: text(m.content) }];
      case 'ai': return [{ role: 'assistant', text: text(m.content), calls: (m.tool_calls ?? []).map((c) => ({ name: c.name, args: c.args })) }];
      case 'tool': return [{ role: 'tool', name: m.name, ...resultOf(m) }];
      default: return [];
    }
  });
}

/** A fake chat model named `modelName` answering with `policy(history)`, for any number of calls. */
export function scriptedModel(modelName, policy) {
  const model = fakeModel();
  const answer = (messages) => {
    model.respond(answer);
    const decision = policy(historyOf(messages));
    return new AIMessage({
      content: decision.text ?? '',
      tool_calls: (decision.calls ?? []).map((c) => ({ name: c.name, args: c.args, id: `call-${(ids += 1)}`, type: 'tool_call' })),
      usage_metadata: {
        input_tokens: USAGE.input, output_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output,
        input_token_details: { cache_read: USAGE.cached }, output_token_details: { reasoning: USAGE.reasoning },
      },
      response_metadata: { model_name: modelName },
    });
  };
  return model.respond(answer);
}
