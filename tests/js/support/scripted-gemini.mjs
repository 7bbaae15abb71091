// Answers for the loopback server in Gemini's wire format, playing both an agent's model and its
// judge: a request that carries tools is the weather agent's model (it calls get_weather for a
// weather question, answers from the tool's output, and says what it does otherwise); any other
// is a judge prompt (a score for "Rate the agent", else a verdict per listed rubric, "clear" no).
// Used by tests/js/agents-cli-ts-project.test.mjs and tools/agents-cli/scaffold_ts.sh.
import { requestText } from './judge-wire.mjs';

export function weatherAgentAndJudge(req) {
  const b = req.body;
  if (Array.isArray(b.tools) && b.tools.length > 0) {
    const last = b.contents.at(-1);
    const output = last.parts.find((p) => p.functionResponse);
    const said = b.contents.filter((c) => c.role === 'user').flatMap((c) => c.parts).map((p) => p.text ?? '').join(' ');
    const parts = output ? [{ text: output.functionResponse.response.report }]
      : /weather/i.test(said) ? [{ functionCall: { name: 'get_weather', args: { city: 'San Francisco' } } }]
        : [{ text: /capital/i.test(said) ? 'The capital of France is Paris.' : 'I can tell you the weather in any city.' }];
    return { body: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] } };
  }
  const t = requestText(req.wire, b);
  if (t.includes('Rate the agent')) return { text: '{"score": 4, "explanation": "helpful"}' };
  const ids = [...t.matchAll(/\[id: ([^\]]+)\]/g)].map((m) => m[1]);
  return { text: ids.map((id) => `ID: ${id}\nProperty: p\nRationale: ok\nVerdict: ${id === 'clear' ? 'no' : 'yes'}`).join('\n\n') };
}

