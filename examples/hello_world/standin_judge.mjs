// A deterministic stand-in for an LLM judge, speaking the OpenAI chat-completions wire format on
// 127.0.0.1. It exists to record judge_cassette.json without network access or API keys; its
// verdicts are simple but sensible rules, not a model's judgement:
//   final_response_match_v2  valid when ROUGE-1 F of the response against the reference >= 0.4
//   hallucinations segmenter split on sentence ends
//   hallucinations validator a sentence with numbers is supported when every number appears in
//                            the context, unsupported otherwise; a sentence without numbers is
//                            not_applicable
// To record from a real provider instead: evalcore eval ... --judge openai:gpt-4o-mini
//   --judge_cassette judge_cassette.json --judge_mode record (with OPENAI_API_KEY set).
import http from 'node:http';
import { rouge1 } from '../../pkg/index.js';

const between = (text, start, end) => {
  const i = text.indexOf(start);
  if (i < 0) return '';
  const j = text.indexOf(end, i + start.length);
  return text.slice(i + start.length, j < 0 ? undefined : j);
};
const numbers = (s) => s.match(/\d+(?:\.\d+)?/g) ?? [];

export function answer(prompt) {
  if (prompt.includes('"reference_response": ')) {
    const response = between(prompt, '"agent_response": ', ',\n  "reference_response": ');
    const reference = between(prompt, '"reference_response": ', '\n}\n');
    const f = rouge1(response, reference).fmeasure;
    const label = f >= 0.4 ? 'valid' : 'invalid';
    return JSON.stringify({ reasoning: `ROUGE-1 F against the reference is ${f.toFixed(2)}.`, is_the_agent_response_valid: label }, null, 2);
  }
  if (prompt.includes('**Context Begin**')) {
    const context = between(prompt, '**Context Begin**', '**Context End**');
    const sentences = [...between(prompt, 'Sentences:\n', '\n\nFor each sentence').matchAll(/<sentence>([\s\S]*?)<\/sentence>/g)].map((m) => m[1]);
    return sentences.map((s) => {
      const nums = numbers(s);
      const label = nums.length === 0 ? 'not_applicable' : nums.every((n) => context.includes(n)) ? 'supported' : 'unsupported';
      return `sentence: ${s}\nlabel: ${label}\nrationale: numbers ${nums.join(', ') || 'none'} checked against the context\nsupporting_excerpt: null\ncontradicting_excerpt: null`;
    }).join('\n\n');
  }
  if (prompt.includes('Wrap each sentence in <sentence>')) {
    const text = prompt.slice(prompt.lastIndexOf('Text:\n') + 'Text:\n'.length).trim();
    return text.split(/(?<=[.!?])\s+/).filter(Boolean).map((s) => `<sentence>${s}</sentence>`).join('\n');
  }
  return 'I cannot judge this request.';
}

export async function startStandInJudge() {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const prompt = JSON.parse(body).messages.map((m) => m.content).join('\n');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        id: 'standin', object: 'chat.completion', model: 'standin-judge',
        choices: [{ index: 0, message: { role: 'assistant', content: answer(prompt) }, finish_reason: 'stop' }],
      }));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
