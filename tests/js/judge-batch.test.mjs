// Hosts that batch: take the judge calls as data (planJudgeCalls: url, body, key), send them
// however they like, and hand the replies back as cassette entries in replay mode: the same core
// path as live judging, with no fetch. hallucinations_v1 needs two rounds (the validator's
// prompt depends on the segmenter's answer); each round's plan lists only what is still missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ec from '../../pkg/index.js';

const inv = (q, a) => ({
  user_content: { role: 'user', parts: [{ text: q }] },
  final_response: { role: 'model', parts: [{ text: a }] },
});
const evalCase = { eval_id: 'batch', conversation: [inv('Roll a die', 'You rolled a 4. Good luck!'), inv('Is 4 prime?', 'No, 4 is not prime.')] };
const actual = evalCase.conversation;
const config = {
  criteria: {
    final_response_match_v2: { threshold: 0.5, judge_model_options: { num_samples: 3 } },
    hallucinations_v1: { threshold: 0.5 },
  },
};
const judge = { provider: 'openai', model: 'batch-model', fetch: () => { throw new Error('a batching host sends nothing through fetch'); } };

// What the host's own batch job answers, per request body.
function answer(body) {
  const prompt = JSON.parse(body).messages[0].content;
  let content;
  if (prompt.includes('"reference_response"')) content = '{"reasoning": "same", "is_the_agent_response_valid": "valid"}';
  else if (prompt.includes('**Context Begin**')) {
    const sentences = [...prompt.split('Sentences:')[1].matchAll(/<sentence>(.*?)<\/sentence>/g)].map((m) => m[1]);
    content = sentences.map((s) => `sentence: ${s}\nlabel: supported\nrationale: r\nsupporting_excerpt: null\ncontradicting_excerpt: null`).join('\n\n');
  } else {
    const text = prompt.slice(prompt.lastIndexOf('Text:\n') + 6).trim();
    content = text.split(/(?<=[.!?])\s+/).map((s) => `<sentence>${s}</sentence>`).join('\n');
  }
  return { status: 200, body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }) };
}

test('batch judging: plan, answer offline, replay; two rounds for hallucinations_v1', async () => {
  const entries = {};
  const rounds = [];
  for (;;) {
    const plan = await ec.planJudgeCalls({ evalCase, actual, config, judge: { ...judge, cassette: { mode: 'auto', entries } } });
    if (plan.count === 0) break;
    rounds.push(plan.calls.map((c) => c.kind).sort());
    for (const c of plan.calls) {
      assert.match(c.url, /\/chat\/completions$/);
      entries[c.key] = answer(c.body);
    }
    assert.ok(rounds.length <= 3, 'the plan must converge');
  }
  // Round 1: 2 invocations x 3 samples of final_response_match_v2 and 2 segmenter calls;
  // round 2: the 2 validator calls that the segmenter answers made necessary.
  assert.deepEqual(rounds, [
    ['judge', 'judge', 'judge', 'judge', 'judge', 'judge', 'segmenter', 'segmenter'],
    ['validator', 'validator'],
  ]);
  const r = await ec.evaluateInvocations({ evalCase, actual, config, judge: { ...judge, cassette: { mode: 'replay', entries } } });
  const by = Object.fromEntries(r.overall_eval_metric_results.map((m) => [m.metric_name, m]));
  assert.equal(by.final_response_match_v2.score, 1);
  assert.equal(by.hallucinations_v1.score, 1);
  assert.equal(r.final_eval_status, 'PASSED');
});

test('replay needs no fetch at all', async () => {
  const r = await ec.evaluateInvocations({ evalCase, actual, config, judge: { provider: 'openai', model: 'm', fetch: null, cassette: { mode: 'replay', entries: {} } } });
  const m = r.overall_eval_metric_results.find((x) => x.metric_name === 'final_response_match_v2');
  assert.equal(m.eval_status, 'NOT_EVALUATED');
  assert.equal(m.details.reason, 'cassette_miss');
});
