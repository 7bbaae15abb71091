// A scripted model for the OpenAI Agents SDK: a `Model` (the SDK's interface for any model:
// `getResponse` and `getStreamedResponse`) whose answers come from a policy
// (../weather/weather.mjs) reading the request's input items — the conversation, function calls
// and their outputs — as a real model would. Served by a `ModelProvider`, as the SDK resolves
// the model names agents give.
import { Usage } from '@openai/agents';
import { USAGE } from '../weather/weather.mjs';

let ids = 0;

const text = (content) => (typeof content === 'string' ? content
  : (Array.isArray(content) ? content : []).map((p) => p.text ?? p.refusal ?? '').join(''));

/** A function call's output as the policy reads it: the tool's value, or the error it threw. */
function resultOf(output) {
  const raw = typeof output === 'string' ? output : output?.text ?? '';
  // How the SDK answers the model for a tool that threw (the agent's errorFunction, worded as the
  // SDK's default: 0.14's adds the error's message, later ones leave it out).
  const failed = /^An error occurred while running the tool\.(?:.*?Error: (.*))?$/s.exec(raw);
  if (failed) return { error: failed[1] ?? raw };
  try {
    return { result: JSON.parse(raw) };
  } catch {
    return { result: raw };
  }
}

/** The request's input items as the policy's entries. */
export function historyOf(input) {
  const out = [];
  for (const item of typeof input === 'string' ? [{ role: 'user', content: input }] : input) {
    if (item.role === 'user') out.push({ role: 'user', text: text(item.content) });
    else if (item.role === 'assistant') out.push({ role: 'assistant', text: text(item.content), calls: [] });
    else if (item.type === 'function_call') {
      if (out.at(-1)?.role !== 'assistant') out.push({ role: 'assistant', text: '', calls: [] });
      out.at(-1).calls.push({ name: item.name, args: JSON.parse(item.arguments || '{}') });
    } else if (item.type === 'function_call_result') out.push({ role: 'tool', name: item.name, ...resultOf(item.output) });
  }
  return out;
}

const usage = () => new Usage({
  requests: 1, inputTokens: USAGE.input, outputTokens: USAGE.output, totalTokens: USAGE.input + USAGE.output,
  inputTokensDetails: { cached_tokens: USAGE.cached }, outputTokensDetails: { reasoning_tokens: USAGE.reasoning },
});

/** The policy's decision as a response's output items: a message, then function calls. */
function outputOf(decision) {
  const output = [];
  if (decision.text) {
    output.push({ type: 'message', role: 'assistant', status: 'completed', id: `msg-${(ids += 1)}`, content: [{ type: 'output_text', text: decision.text }] });
  }
  for (const call of decision.calls ?? []) {
    output.push({ type: 'function_call', callId: `call-${(ids += 1)}`, name: call.name, arguments: JSON.stringify(call.args), status: 'completed' });
  }
  return output;
}

export class ScriptedModel {
  constructor(policy) {
    this.policy = policy;
  }

  async getResponse(request) {
    return { output: outputOf(this.policy(historyOf(request.input))), usage: usage(), responseId: `resp-${(ids += 1)}` };
  }

  async *getStreamedResponse(request) {
    const output = outputOf(this.policy(historyOf(request.input)));
    yield { type: 'response_started' };
    for (const item of output) if (item.type === 'message') yield { type: 'output_text_delta', delta: item.content[0].text };
    const u = usage();
    yield {
      type: 'response_done',
      response: {
        id: `resp-${(ids += 1)}`, output,
        usage: { requests: 1, inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.totalTokens, inputTokensDetails: u.inputTokensDetails[0], outputTokensDetails: u.outputTokensDetails[0] },
      },
    };
  }
}

/** A model provider serving scripted models by name, as `OpenAIProvider` serves OpenAI's. */
export function scriptedProvider(models) {
  return {
    getModel(name) {
      const model = models[name];
      if (!model) throw new Error(`no scripted model named ${name}`);
      return model;
    },
  };
}
