// The loopback judge server itself (tests/js/support/judge-server.mjs), without evalcore: the
// routing rule of shared/judge_oracles.md on hand-built rows and on every real line (each
// scripted answer must be reachable by requests built from the line's own texts), the three
// wire formats, the accounting, the scripted faults, and the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DATA, ROOT, readJsonl } from './helpers.mjs';
import { OracleScript, routeText, routingTable, startJudgeServer } from './support/judge-server.mjs';

const ORACLES = join(DATA, 'judge_oracles.jsonl');

// ---------------------------------------------------------------------------------------------
// Hand-built rows

const A = '[inv-0000000a]';
const B = '[inv-0000000b]';
const QA = '[q-0000000a]';
const QB = '[q-0000000b]';

function row({ criteria, script }) {
  return { id: 'hand', tags: [], config: { criteria }, script };
}

const rubricRow = row({
  criteria: {
    final_response_match_v2: { threshold: 0.5 },
    rubric_based_final_response_quality_v1: { threshold: 0.5, rubrics: [{ rubric_id: 'frq_one' }, { rubricId: 'frq_two' }] },
    rubric_based_tool_use_quality_v1: { threshold: 0.5, rubrics: [{ rubric_id: 'tuq_one' }] },
  },
  script: {
    final_response_match_v2: { [A]: { judge: ['fa1', 'fa2'] }, [B]: { judge: ['fb1'] } },
    rubric_based_final_response_quality_v1: { [A]: { judge: ['ra1'] }, [B]: {} },
    rubric_based_tool_use_quality_v1: { [A]: { judge: ['ta1', { error: 'boom' }] }, [B]: { judge: ['tb1'] } },
  },
});

const halluRow = row({
  criteria: { hallucinations_v1: { threshold: 0.5 } },
  script: { hallucinations_v1: { [A]: { segmenter: ['s1', { error: 'seg failed' }], validator: ['v1'] }, [B]: { segmenter: ['s2'] } } },
});

describe('routing rule on hand-built rows', () => {
  const t = routingTable(rubricRow);

  test('the table: markers of every metric, rubric ids (rubric_id or rubricId), the final metric', () => {
    assert.deepEqual(t.markers.sort(), [A, B]);
    assert.deepEqual(t.rubricIds, {
      rubric_based_final_response_quality_v1: ['frq_one', 'frq_two'],
      rubric_based_tool_use_quality_v1: ['tuq_one'],
    });
    assert.deepEqual(t.finals, ['final_response_match_v2']);
  });

  test('marker: none or two is not routable', () => {
    assert.match(routeText(t, 'no marker here').error, /no marker/);
    assert.match(routeText(t, `${A} and ${B}`).error, /more than one marker/);
    assert.match(routeText(t, '[inv-0000000c] a marker of no key').error, /no marker/);
  });

  test('metric: by rubric ids, two rubric metrics is not routable, none falls back to the final metric', () => {
    assert.deepEqual(routeText(t, `${A} ${QA} frq_one frq_two`), {
      metric: 'rubric_based_final_response_quality_v1', marker: A, kind: 'judge', missingRubricIds: [],
    });
    assert.deepEqual(routeText(t, `${B} tuq_one`).metric, 'rubric_based_tool_use_quality_v1');
    assert.match(routeText(t, `${A} frq_one tuq_one`).error, /two metrics/);
    assert.deepEqual(routeText(t, `${B} ${QB} reference`), {
      metric: 'final_response_match_v2', marker: B, kind: 'judge', missingRubricIds: [],
    });
    // Routing needs one id; the ids the text lacks are reported.
    assert.deepEqual(routeText(t, `${A} frq_two`).missingRubricIds, ['frq_one']);
  });

  test('metric: a rubric-only line without rubric ids in the text is not routable', () => {
    const only = routingTable(row({
      criteria: { rubric_based_tool_use_quality_v1: { rubrics: [{ rubric_id: 'tuq_x' }] } },
      script: { rubric_based_tool_use_quality_v1: { [A]: { judge: ['x'] } } },
    }));
    assert.match(routeText(only, `${A} ${QA}`).error, /no final_response_match_v2 or hallucinations_v1/);
    assert.equal(routeText(only, `${A} tuq_x`).metric, 'rubric_based_tool_use_quality_v1');
  });

  test('hallucinations: validator with the question tag, segmenter without', () => {
    const h = routingTable(halluRow);
    assert.equal(routeText(h, `${A} The sentence.`).kind, 'segmenter');
    assert.equal(routeText(h, `Context ${A} ${QA} <sentence>${A} The sentence.</sentence>`).kind, 'validator');
    // Another invocation's question tag does not make a validator.
    assert.equal(routeText(h, `${A} ${QB}`).kind, 'segmenter');
  });

  test('a line with both final metrics is not routable without rubric ids', () => {
    const both = routingTable(row({
      criteria: { final_response_match_v2: 1, hallucinations_v1: 1 },
      script: { final_response_match_v2: { [A]: {} }, hallucinations_v1: { [A]: {} } },
    }));
    assert.match(routeText(both, `${A}`).error, /both/);
  });
});

describe('OracleScript: first in, first out per key, and the accounting', () => {
  test('answers in order per key, independent across keys', () => {
    const o = new OracleScript(rubricRow);
    assert.deepEqual(o.take(`${A} ${QA}`).answers, ['fa1']);
    assert.deepEqual(o.take(`${B} ${QB}`).answers, ['fb1']);
    assert.deepEqual(o.take(`${A} ${QA}`).answers, ['fa2']);
    assert.equal(o.take(`${A} ${QA}`).exhausted, true);
    const rep = o.report();
    assert.equal(rep.ok, false);
    assert.deepEqual(rep.overAsked, [{ metric: 'final_response_match_v2', marker: A, kind: 'judge', scripted: 2, asked: 3 }]);
  });

  test('n > 1 takes n entries; a failure among them fails the request and uses them up', () => {
    const o = new OracleScript(rubricRow);
    assert.deepEqual(o.take(`${A} ${QA}`, 2).answers, ['fa1', 'fa2']);
    const f = o.take(`${A} ${QA} tuq_one`, 2);
    assert.equal(f.failure, 'boom');
    assert.equal(o.take(`${A} ${QA} tuq_one`).exhausted, true);
    const partial = new OracleScript(rubricRow);
    partial.take(`${A} ${QA}`);
    assert.equal(partial.take(`${A} ${QA}`, 2).exhausted, true, 'fewer entries left than n');
  });

  test('never asked answers fail the line, except in a judge key whose script holds a failure', () => {
    const o = new OracleScript(rubricRow);
    o.take(`${A} ${QA}`, 2);
    o.take(`${B} ${QB}`);
    o.take(`${A} ${QA} frq_one frq_two`);
    o.take(`${B} ${QB} tuq_one`);
    // tuq A: 'ta1' answered, the failure never asked -> excused (the key holds a failure).
    o.take(`${A} ${QA} tuq_one`);
    let rep = o.report();
    assert.deepEqual(rep.problems, []);
    assert.equal(rep.ok, true);
    assert.equal(rep.requests, 5);
    assert.equal(rep.routed, 5);
    // A segmenter key holding a failure is not excused: every step's call must be made.
    const h = new OracleScript(halluRow);
    h.take(`${A} text`);
    h.take(`${A} ${QA} context`);
    h.take(`${B} text`);
    rep = h.report();
    assert.deepEqual(rep.neverAsked, [{ metric: 'hallucinations_v1', marker: A, kind: 'segmenter', scripted: 2, asked: 1 }]);
  });

  test('a key absent from the script (a call ADK never made) is exhausted and over-asked', () => {
    const h = new OracleScript(halluRow);
    assert.equal(h.take(`${B} ${QB} context`).exhausted, true);
    assert.deepEqual(h.report().overAsked, [{ metric: 'hallucinations_v1', marker: B, kind: 'validator', scripted: 0, asked: 1 }]);
  });

  test('unroutable requests and anomalies are reported with the reason', () => {
    const o = new OracleScript(rubricRow);
    o.take('nothing', 1, { wire: 'gemini', path: '/x' });
    o.take(`${A} frq_one`); // rubric request lacking frq_two and the question tag
    const rep = o.report();
    assert.equal(rep.unroutable.length, 1);
    assert.equal(rep.unroutable[0].wire, 'gemini');
    assert.ok(rep.problems.some((p) => /unroutable request \(gemini \/x\): no marker/.test(p)), rep.problems.join('\n'));
    assert.ok(rep.problems.some((p) => /without rubric id\(s\) frq_two/.test(p)));
    assert.ok(rep.problems.some((p) => /without the user prompt/.test(p)));
  });
});

// ---------------------------------------------------------------------------------------------
// Over HTTP

const WIRES = {
  openai: { path: '/v1/chat/completions', headers: {} },
  gemini: { path: '/v1beta/models/judge-model:generateContent', headers: { 'x-goog-api-key': 'k' } },
  anthropic: { path: '/v1/messages', headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' } },
};

function requestBody(wire, text, { n = 1, stream = false, model = 'judge-model' } = {}) {
  if (wire === 'openai') {
    return { model, messages: [{ role: 'user', content: text }], ...(n > 1 ? { n } : {}), ...(stream ? { stream } : {}) };
  }
  if (wire === 'gemini') {
    return { contents: [{ role: 'user', parts: [{ text }] }], ...(n > 1 ? { generationConfig: { candidateCount: n } } : {}) };
  }
  return { model, max_tokens: 1024, messages: [{ role: 'user', content: [{ type: 'text', text }] }], ...(stream ? { stream } : {}) };
}

async function post(base, wire, body, { path, headers = {}, signal } = {}) {
  const w = WIRES[wire];
  const res = await fetch(base + (path ?? w.path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...w.headers, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The answer texts of a successful reply in any wire format. */
function answers(wire, json) {
  if (wire === 'openai') return json.choices.map((c) => c.message.content);
  if (wire === 'gemini') return json.candidates.map((c) => c.content.parts.map((p) => p.text).join(''));
  return json.content.map((b) => b.text);
}

/** The message of an error reply in any wire format. */
function errorMessage(wire, json) {
  return wire === 'anthropic' ? json.error.message : json.error.message;
}

let server;
before(async () => { server = await startJudgeServer(); });
after(async () => { await server?.close(); });

describe('wire formats', () => {
  const line = readJsonl(ORACLES)[0];
  const marker = Object.keys(line.script.hallucinations_v1)[0];

  for (const wire of Object.keys(WIRES)) {
    test(`${wire}: routed by text, reply in the provider's shape`, async () => {
      server.load(line);
      const r = await post(server.baseUrl, wire, requestBody(wire, `${marker} a response`));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(answers(wire, r.json), [line.script.hallucinations_v1[marker].segmenter[0]]);
      if (wire === 'openai') {
        assert.equal(r.json.object, 'chat.completion');
        assert.equal(r.json.model, 'judge-model');
        assert.deepEqual(Object.keys(r.json.usage).sort(), ['completion_tokens', 'prompt_tokens', 'total_tokens']);
        assert.equal(r.json.choices[0].finish_reason, 'stop');
        assert.equal(r.json.choices[0].message.role, 'assistant');
      } else if (wire === 'gemini') {
        assert.equal(r.json.candidates[0].finishReason, 'STOP');
        assert.equal(r.json.candidates[0].content.role, 'model');
        assert.equal(r.json.modelVersion, 'judge-model');
        assert.equal(typeof r.json.usageMetadata.totalTokenCount, 'number');
      } else {
        assert.equal(r.json.type, 'message');
        assert.equal(r.json.stop_reason, 'end_turn');
        assert.equal(typeof r.json.usage.input_tokens, 'number');
      }
      const rec = server.requests.at(-1);
      assert.equal(rec.wire, wire);
      assert.equal(rec.method, 'POST');
      assert.equal(rec.path, WIRES[wire].path);
      assert.deepEqual(rec.route, { metric: 'hallucinations_v1', marker, kind: 'segmenter', index: 0, n: 1 });
      for (const [h, v] of Object.entries(WIRES[wire].headers)) assert.equal(rec.headers[h], v);
    });

    test(`${wire}: a scripted failure is a 400 in the provider's error shape`, async () => {
      server.load(row({ criteria: { final_response_match_v2: 1 }, script: { final_response_match_v2: { [A]: { judge: [{ error: 'scripted boom' }] } } } }));
      const r = await post(server.baseUrl, wire, requestBody(wire, `${A} ${QA}`));
      assert.equal(r.status, 400);
      assert.equal(errorMessage(wire, r.json), 'scripted boom');
      if (wire === 'openai') assert.deepEqual(r.json.error, { message: 'scripted boom', type: 'invalid_request_error', param: null, code: 'scripted_failure' });
      if (wire === 'gemini') assert.deepEqual(r.json, { error: { code: 400, message: 'scripted boom', status: 'INVALID_ARGUMENT' } });
      if (wire === 'anthropic') assert.deepEqual(r.json, { type: 'error', error: { type: 'invalid_request_error', message: 'scripted boom' } });
      const again = await post(server.baseUrl, wire, requestBody(wire, `${A} ${QA}`));
      assert.equal(again.status, 400);
      assert.match(errorMessage(wire, again.json), /script exhausted/);
      assert.equal(server.report().overAsked.length, 1);
    });
  }

  test('the text of every message and part counts, system prompts included', async () => {
    server.load(rubricRow);
    const oa = await post(server.baseUrl, 'openai', {
      model: 'm',
      messages: [{ role: 'system', content: 'rate frq_one and frq_two' }, { role: 'user', content: [{ type: 'text', text: `${A} ${QA}` }] }],
    });
    assert.deepEqual(answers('openai', oa.json), ['ra1']);
    const gm = await post(server.baseUrl, 'gemini', {
      systemInstruction: { parts: [{ text: 'rate tuq_one' }] },
      contents: [{ role: 'user', parts: [{ text: B }, { text: QB }] }],
    });
    assert.deepEqual(answers('gemini', gm.json), ['tb1']);
    const an = await post(server.baseUrl, 'anthropic', {
      model: 'm', max_tokens: 10, system: [{ type: 'text', text: 'judge' }], messages: [{ role: 'user', content: `${B} ${QB}` }],
    });
    assert.deepEqual(answers('anthropic', an.json), ['fb1']);
  });

  test('n > 1 (OpenAI n, Gemini candidateCount) returns n choices from n entries', async () => {
    server.load(rubricRow);
    const oa = await post(server.baseUrl, 'openai', requestBody('openai', `${A} ${QA}`, { n: 2 }));
    assert.deepEqual(answers('openai', oa.json), ['fa1', 'fa2']);
    assert.deepEqual(oa.json.choices.map((c) => c.index), [0, 1]);
    server.load(rubricRow);
    const gm = await post(server.baseUrl, 'gemini', requestBody('gemini', `${A} ${QA}`, { n: 2 }));
    assert.deepEqual(answers('gemini', gm.json), ['fa1', 'fa2']);
  });

  test('streaming: OpenAI and Anthropic SSE, Gemini streamGenerateContent (SSE and JSON array)', async () => {
    const text = 'a streamed answer of some length';
    server.script({ '*': text }, { fallback: text });
    const oa = await post(server.baseUrl, 'openai', requestBody('openai', 'x', { stream: true }));
    assert.equal(oa.headers.get('content-type'), 'text/event-stream');
    const events = oa.text.split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
    assert.equal(events.at(-1), '[DONE]');
    assert.equal(events.slice(0, -1).map((e) => JSON.parse(e).choices[0]?.delta?.content ?? '').join(''), text);
    const an = await post(server.baseUrl, 'anthropic', requestBody('anthropic', 'x', { stream: true }));
    const deltas = an.text.split('\n\n').filter(Boolean).map((e) => JSON.parse(e.split('\n')[1].replace(/^data: /, '')));
    assert.deepEqual(deltas.map((d) => d.type), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    assert.equal(deltas.filter((d) => d.type === 'content_block_delta').map((d) => d.delta.text).join(''), text);
    const gs = await post(server.baseUrl, 'gemini', requestBody('gemini', 'x'), { path: '/v1beta/models/g:streamGenerateContent?alt=sse' });
    const chunks = gs.text.split('\n\n').filter(Boolean).map((e) => JSON.parse(e.replace(/^data: /, '')));
    assert.equal(chunks.map((c) => c.candidates[0].content.parts[0].text).join(''), text);
    assert.equal(chunks.at(-1).candidates[0].finishReason, 'STOP');
    const ga = await post(server.baseUrl, 'gemini', requestBody('gemini', 'x'), { path: '/v1beta/models/g:streamGenerateContent' });
    assert.equal(ga.json.map((c) => c.candidates[0].content.parts[0].text).join(''), text);
  });

  test('requests a provider would reject are 400s and fail the accounting', async () => {
    server.load(line);
    const cases = [
      ['anthropic', requestBody('anthropic', marker), { 'anthropic-version': '' }, /anthropic-version/],
      ['anthropic', { model: 'm', messages: [{ role: 'user', content: marker }] }, {}, /max_tokens/],
      ['anthropic', { model: 'm', max_tokens: 5, messages: [{ role: 'system', content: marker }] }, {}, /role/],
      ['openai', { messages: [{ role: 'user', content: marker }] }, {}, /model/],
      ['openai', { model: 'm', messages: [] }, {}, /messages/],
      ['gemini', { contents: [{ role: 'assistant', parts: [{ text: marker }] }] }, {}, /role/],
      ['gemini', '{"contents": [', {}, /not JSON/],
    ];
    for (const [wire, body, headers, re] of cases) {
      const r = await post(server.baseUrl, wire, body, { headers });
      assert.equal(r.status, 400, `${wire} ${JSON.stringify(body)}`);
      assert.match(errorMessage(wire, r.json), re);
    }
    const nf = await post(server.baseUrl, 'openai', requestBody('openai', marker), { path: '/v1/completions' });
    assert.equal(nf.status, 404);
    const rep = server.report();
    assert.equal(rep.invalid.length, cases.length + 1);
    assert.equal(rep.routed, 0);
    assert.equal(rep.ok, false);
  });
});

// ---------------------------------------------------------------------------------------------
// Every real line: each scripted answer is reachable from the line's own texts.

const partsText = (content) => (content?.parts ?? []).map((p) => p?.text).filter((t) => typeof t === 'string').join('\n');

/** Every string inside `value` that contains `marker` (agent texts of the invocation). */
function agentTexts(value, marker, out = []) {
  if (typeof value === 'string') {
    if (value.includes(marker) && !value.includes('[q-')) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) agentTexts(v, marker, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k !== 'user_content' && k !== 'userContent') agentTexts(v, marker, out);
  }
  return out;
}

/** A request text for (metric, marker, kind) made only of the line's own texts. */
function textFor(line, metric, marker, kind) {
  const conv = line.eval_case.conversation;
  const expected = conv.find((c) => partsText(c.user_content ?? c.userContent).includes(marker));
  const actual = line.actual_invocations.find((a) => partsText(a.user_content).includes(marker));
  assert.ok(expected && actual, `${line.id}: no invocation has the marker ${marker}`);
  const user = partsText(actual.user_content);
  const agent = agentTexts(actual, marker);
  const response = agent[0] ?? marker;
  if (kind === 'segmenter') return `Split this response into sentences.\n${response}`;
  if (kind === 'validator') return `Context:\nUser prompt:\n${user}\n<sentence>${response}</sentence>`;
  if (metric === 'final_response_match_v2') {
    return `User prompt: ${partsText(expected.user_content ?? expected.userContent)}\nResponse: ${response}\nReference: ${partsText(expected.final_response ?? expected.finalResponse)}`;
  }
  const rubrics = line.config.criteria[metric].rubrics
    .map((r) => `*  [id: ${r.rubric_id ?? r.rubricId}] ${(r.rubric_content ?? r.rubricContent)?.text_property ?? (r.rubric_content ?? r.rubricContent)?.textProperty ?? ''}`);
  return `<main_prompt>${user}</main_prompt>\n<final_answer>${response}</final_answer>\n<properties>\n${rubrics.join('\n')}\n</properties>`;
}

describe('judge_oracles.jsonl: every scripted answer is reachable from the line\'s texts', () => {
  const lines = readJsonl(ORACLES);
  test('120 lines, 770 scripted calls', () => {
    assert.equal(lines.length, 120);
    let calls = 0;
    for (const l of lines) for (const m of Object.values(l.script)) for (const k of Object.values(m)) for (const a of Object.values(k)) calls += a.length;
    assert.equal(calls, 770);
  });

  lines.forEach((line, i) => {
    const wire = Object.keys(WIRES)[i % 3];
    test(`${line.id} over ${wire}`, async () => {
      server.load(line);
      // Keys run concurrently (as an implementation may send them); each key's calls in order.
      const keys = [];
      for (const [metric, byMarker] of Object.entries(line.script)) {
        for (const [marker, byKind] of Object.entries(byMarker)) {
          for (const [kind, entries] of Object.entries(byKind)) keys.push({ metric, marker, kind, entries });
        }
      }
      await Promise.all(keys.map(async ({ metric, marker, kind, entries }) => {
        const text = textFor(line, metric, marker, kind);
        // Every fourth line asks for all of a key's answers at once where the wire has `n`.
        const batch = i % 4 === 1 && wire !== 'anthropic' && entries.length > 1;
        const groups = batch ? [entries] : entries.map((e) => [e]);
        for (const group of groups) {
          const r = await post(server.baseUrl, wire, requestBody(wire, text, { n: group.length }));
          const failure = group.find((e) => typeof e !== 'string');
          const what = `${metric} ${marker} ${kind}`;
          if (failure) {
            assert.equal(r.status, 400, `${what}: expected the scripted failure, got ${r.status} ${r.text.slice(0, 200)}`);
            assert.equal(errorMessage(wire, r.json), failure.error);
          } else {
            assert.equal(r.status, 200, `${what}: ${r.text.slice(0, 300)}`);
            assert.deepEqual(answers(wire, r.json), group, what);
          }
        }
      }));
      const rep = server.report();
      assert.deepEqual(rep.problems, [], `${line.id}: ${rep.problems.join('\n')}`);
      assert.equal(rep.ok, true);
      assert.equal(rep.routed, rep.requests);
      // One request more for any answered key is over-asked and fails the line.
      const k = keys.find((x) => x.entries.length > 0);
      if (k) {
        const r = await post(server.baseUrl, wire, requestBody(wire, textFor(line, k.metric, k.marker, k.kind)));
        assert.equal(r.status, 400);
        assert.match(errorMessage(wire, r.json), /script exhausted/);
        assert.equal(server.report().ok, false);
      }
    });
  });

  test('every marker\'s user text carries its question tag and no agent text does', () => {
    for (const line of lines) {
      for (const marker of routingTable(line).markers) {
        const q = marker.replace('[inv-', '[q-');
        const actual = line.actual_invocations.find((a) => partsText(a.user_content).includes(marker));
        assert.ok(partsText(actual.user_content).includes(q), `${line.id} ${marker}`);
        for (const t of agentTexts(actual, marker)) assert.ok(!t.includes(q), `${line.id}: agent text with ${q}`);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Scripted mode

describe('scripted mode', () => {
  test('queues by exact path, then wire, then *; then the fallback', async () => {
    server.script({ '/v1/chat/completions': ['by path'], openai: ['by wire'], '*': ['any'] });
    const got = [];
    for (let k = 0; k < 4; k++) {
      const r = await post(server.baseUrl, 'openai', requestBody('openai', 'x'));
      got.push(r.status === 200 ? answers('openai', r.json)[0] : `${r.status} ${r.json.error.code}`);
    }
    assert.deepEqual(got, ['by path', 'by wire', 'any', '400 script_exhausted']);
    assert.equal(server.report().fallbackReplies, 1);
    server.enqueue('gemini', 'queued later');
    const g = await post(server.baseUrl, 'gemini', requestBody('gemini', 'x'));
    assert.deepEqual(answers('gemini', g.json), ['queued later']);
  });

  test('a handler decides per request and sees the parsed body and headers', async () => {
    server.script((req) => ({ text: `${req.wire}:${req.body.model ?? req.model}:${req.headers['x-custom'] ?? ''}` }));
    const r = await post(server.baseUrl, 'anthropic', requestBody('anthropic', 'x', { model: 'claude-x' }), { headers: { 'x-custom': 'yes' } });
    assert.deepEqual(answers('anthropic', r.json), ['anthropic:claude-x:yes']);
    const g = await post(server.baseUrl, 'gemini', requestBody('gemini', 'x'));
    assert.deepEqual(answers('gemini', g.json), ['gemini:judge-model:']);
    const rec = server.requests.at(-1);
    assert.deepEqual(rec.body, requestBody('gemini', 'x'));
    assert.equal(typeof rec.arrivedAt, 'number');
    assert.ok(rec.finishedAt >= rec.arrivedAt);
  });

  test('429 with Retry-After and 500/503 carry the provider error bodies', async () => {
    for (const wire of Object.keys(WIRES)) {
      server.script({ [wire]: [{ status: 429, retryAfter: 3 }, { status: 500 }, { status: 503, error: 'overloaded' }] });
      const r1 = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(r1.status, 429);
      assert.equal(r1.headers.get('retry-after'), '3');
      const r2 = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(r2.status, 500);
      const r3 = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(r3.status, 503);
      assert.equal(errorMessage(wire, r3.json), 'overloaded');
      if (wire === 'gemini') assert.deepEqual([r1.json.error.status, r2.json.error.status, r3.json.error.status], ['RESOURCE_EXHAUSTED', 'INTERNAL', 'UNAVAILABLE']);
      if (wire === 'anthropic') assert.deepEqual([r1.json.error.type, r2.json.error.type, r3.json.error.type], ['rate_limit_error', 'api_error', 'overloaded_error']);
      if (wire === 'openai') assert.deepEqual([r1.json.error.type, r2.json.error.type], ['rate_limit_exceeded', 'server_error']);
    }
  });

  test('connection reset: the socket is destroyed, fetch rejects', async () => {
    server.script({ '*': [{ fault: 'reset' }] });
    await assert.rejects(post(server.baseUrl, 'openai', requestBody('openai', 'x')), (e) => e instanceof TypeError);
    assert.equal(server.requests[0].outcome, 'reset');
  });

  test('malformed JSON, empty choices/candidates/content, 200 with an error body', async () => {
    for (const wire of Object.keys(WIRES)) {
      server.script({ '*': [{ fault: 'malformed' }, { fault: 'empty' }, { fault: 'errorBody', error: 'quota' }] });
      const m = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(m.status, 200);
      assert.equal(m.json, undefined, `${wire}: the malformed body parsed: ${m.text}`);
      const e = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(e.status, 200);
      assert.deepEqual(answers(wire, e.json), []);
      const b = await post(server.baseUrl, wire, requestBody(wire, 'x'));
      assert.equal(b.status, 200);
      assert.equal(errorMessage(wire, b.json), 'quota');
    }
  });

  test('a reply delayed beyond the client timeout: the client gives up, the server records it', async () => {
    server.script({ '*': [{ text: 'late', delayMs: 30_000 }, { fault: 'hang' }] });
    for (let k = 0; k < 2; k++) {
      await assert.rejects(post(server.baseUrl, 'openai', requestBody('openai', 'x'), { signal: AbortSignal.timeout(300) }),
        (e) => e.name === 'TimeoutError' || e.name === 'AbortError');
    }
    // The server notices the closed connection (give it a moment on a loaded machine).
    for (let k = 0; k < 100 && server.inFlight > 0; k++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.inFlight, 0);
    assert.deepEqual(server.requests.map((r) => r.clientAborted), [true, true]);
  });

  test('latency per reply and the in-flight maximum', async () => {
    server.script({}, { fallback: { text: 'ok', delayMs: 300 } });
    await Promise.all(Array.from({ length: 6 }, () => post(server.baseUrl, 'openai', requestBody('openai', 'x'))));
    assert.equal(server.maxInFlight, 6);
    server.reset();
    for (let k = 0; k < 3; k++) await post(server.baseUrl, 'openai', requestBody('openai', 'x'));
    assert.equal(server.maxInFlight, 1);
    const r = server.requests;
    // Each reply waited at least its delay (a lower bound: load only makes it longer).
    for (const x of r) assert.ok(x.finishedAt - x.arrivedAt >= 290, `${x.finishedAt - x.arrivedAt} ms`);
    assert.ok(r[1].arrivedAt >= r[0].finishedAt && r[2].arrivedAt >= r[1].finishedAt);
    server.setLatency(0);
  });
});

// ---------------------------------------------------------------------------------------------
// CLI

test('CLI: serves one line by hand, logs the routing, prints the accounting on SIGINT', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'tests', 'js', 'support', 'judge-server.mjs'), ORACLES, '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  const until = async (re) => {
    for (let k = 0; k < 500; k++) {
      const m = re.exec(out);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`CLI output never matched ${re}:\n${out}`);
  };
  try {
    const [, base] = await until(/baseUrl (http:\/\/127\.0\.0\.1:\d+)/);
    const line = readJsonl(ORACLES)[0];
    const marker = Object.keys(line.script.hallucinations_v1)[0];
    const r = await post(base, 'openai', requestBody('openai', `${marker} text`));
    assert.equal(r.status, 200);
    await until(/#1 openai \/v1\/chat\/completions -> hallucinations_v1 \[inv-[0-9a-f]{8}\] segmenter #1 -> 200/);
    const exit = new Promise((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGINT');
    assert.equal(await exit, 1, 'most answers were never asked, so the line fails');
    assert.match(out, /"ok": false/);
    assert.match(out, /never asked: rubric_based_tool_use_quality_v1/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

// ---------------------------------------------------------------------------------------------
// google-adk itself through the server (needs benches/.venv with google-adk 2.13.0, which
// `bash benches/run.sh` creates): ADK's real prompts over the Gemini wire format must be routed
// to every scripted answer and reach every line's verdict with a clean accounting.

const VENV_PYTHON = join(ROOT, 'benches', '.venv', 'bin', 'python');
function adkAvailable() {
  return new Promise((resolve) => {
    const c = spawn(VENV_PYTHON, ['-c', 'import importlib.metadata as m; assert m.version("google-adk") == "2.13.0"'], { stdio: 'ignore' });
    c.on('error', () => resolve(false));
    c.on('close', (code) => resolve(code === 0));
  });
}

test('google-adk 2.13 through the server: every line equal, every answer asked once', { timeout: 600_000 }, async (t) => {
  if (!(await adkAvailable())) {
    t.skip('benches/.venv has no google-adk 2.13.0 (bash benches/run.sh creates it)');
    return;
  }
  const child = spawn(process.execPath, [join(ROOT, 'benches', 'judge', 'adk-oracles.mjs'), ORACLES], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.match(out, /google-adk through the loopback judge: 120\/120 equal to judge_oracles \(770 judge requests\)/, out.slice(-4000));
  assert.equal(code, 0);
});
