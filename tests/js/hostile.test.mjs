// Hostile input through the package: every case must give an EvalError with a sensible code and
// path (or, where marked, may succeed), never a trap, a hang or a crash, and the module must
// answer normally afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as api from '../../pkg/index.js';
import { assertHealthy, checkEvalError } from './api-suite.mjs';
import { MINIMAL_SET, actualFor, clone } from './helpers.mjs';

const MB = 1024 * 1024;
const CASE = MINIMAL_SET.eval_cases[0];
const INV = CASE.conversation[0];

/** MINIMAL_SET with `edit` applied to a deep copy. */
function setWith(edit) {
  const s = clone(MINIMAL_SET);
  edit(s, s.eval_cases[0], s.eval_cases[0].conversation[0]);
  return s;
}
function nestedArrays(depth) {
  let v = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
const deepText = (depth, open, close, leaf = '1') => open.repeat(depth) + leaf + close.repeat(depth);
const minimalText = JSON.stringify(MINIMAL_SET);

// Each case: [name, call, expected code(s) | 'any', path (string | RegExp), extra check]
// 'any' = may succeed or fail, but only with an EvalError; the point is survival.
const loadCases = [
  // --- malformed JSON
  ['empty string', () => api.loadEvalSet(''), 'invalid_json', ''],
  ['whitespace only', () => api.loadEvalSet(' \n\t '), 'invalid_json', ''],
  ['truncated object', () => api.loadEvalSet('{'), 'invalid_json', ''],
  ['truncated mid-string', () => api.loadEvalSet(minimalText.slice(0, 60)), 'invalid_json', ''],
  ['truncated mid-number', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":1.'), 'invalid_json', ''],
  ['trailing garbage', () => api.loadEvalSet(`${minimalText} x`), 'invalid_json', ''],
  ['two documents', () => api.loadEvalSet(`${minimalText}${minimalText}`), 'invalid_json', ''],
  ['NaN literal', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":NaN}'), 'invalid_json', ''],
  ['Infinity literal', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":Infinity}'), 'invalid_json', ''],
  ['-Infinity literal', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":-Infinity}'), 'invalid_json', ''],
  ['single quotes', () => api.loadEvalSet("{'eval_set_id': 'a', 'eval_cases': []}"), 'invalid_json', ''],
  ['trailing comma', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],}'), 'invalid_json', ''],
  ['comment', () => api.loadEvalSet('// eval set\n{"eval_set_id":"a","eval_cases":[]}'), 'invalid_json', ''],
  ['unquoted key', () => api.loadEvalSet('{eval_set_id:"a","eval_cases":[]}'), 'invalid_json', ''],
  ['bad escape', () => api.loadEvalSet('{"eval_set_id":"\\x41","eval_cases":[]}'), 'invalid_json', ''],
  ['raw control character in a string', () => api.loadEvalSet('{"eval_set_id":"a\u0001b","eval_cases":[]}'), 'invalid_json', ''],
  ['lone high surrogate escape', () => api.loadEvalSet('{"eval_set_id":"\\ud800","eval_cases":[]}'), 'invalid_json', ''],
  ['lone low surrogate escape', () => api.loadEvalSet('{"eval_set_id":"\\udc00x","eval_cases":[]}'), 'invalid_json', ''],
  ['reversed surrogate pair escape', () => api.loadEvalSet('{"eval_set_id":"\\udc00\\ud800","eval_cases":[]}'), 'invalid_json', ''],
  ['lone surrogate in JS text', () => api.loadEvalSet('{"eval_set_id":"\ud800","eval_cases":[]}'), 'invalid_json', ''],
  ['lone surrogate in a JS object', () => api.loadEvalSet({ eval_set_id: 'a\udfff', eval_cases: [] }), 'invalid_json', ''],
  ['invalid UTF-8 bytes', () => api.loadEvalSet(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])), 'invalid_json', ''],
  ['byte order mark', () => api.loadEvalSet(`\ufeff${minimalText}`), 'any'],
  ['NUL byte outside a string', () => api.loadEvalSet(`${minimalText}\u0000`), 'invalid_json', ''],
  // --- numbers
  ['number overflowing f64', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":1e400}'), ['invalid_json', 'schema']],
  ['negative number overflowing f64', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":-1e400}'), ['invalid_json', 'schema']],
  ['integer with 10k digits', () => api.loadEvalSet(`{"eval_set_id":"a","eval_cases":[],"creation_timestamp":1${'0'.repeat(10000)}}`), ['invalid_json', 'schema']],
  ['underflowing number', () => api.loadEvalSet('{"eval_set_id":"a","eval_cases":[],"creation_timestamp":1e-400}'), 'any'],
  ['huge integer where a string belongs', () => api.loadEvalSet('{"eval_set_id":123456789012345678901234567890,"eval_cases":[]}'), 'schema', /eval_set_id/],
  ['float where a string belongs', () => api.loadEvalSet(setWith((s, c) => { c.eval_id = 1.5; })), 'schema', /\$\.eval_cases\[0\]/],
  // --- non-object roots
  ['root null', () => api.loadEvalSet('null'), 'schema'],
  ['root true', () => api.loadEvalSet('true'), 'schema'],
  ['root number', () => api.loadEvalSet('42'), 'schema'],
  ['root string', () => api.loadEvalSet('"eval set"'), 'schema'],
  ['root list of numbers', () => api.loadEvalSet('[1, 2]'), 'schema', /^\$/],
  ['root empty list', () => api.loadEvalSet('[]'), 'any'],
  ['root empty object', () => api.loadEvalSet('{}'), 'schema'],
  ['JS undefined', () => api.loadEvalSet(undefined), 'invalid_json', ''],
  ['JS function', () => api.loadEvalSet(() => 1), 'invalid_json', ''],
  ['JS symbol', () => api.loadEvalSet(Symbol('x')), 'invalid_json', ''],
  ['JS BigInt inside', () => api.loadEvalSet({ eval_set_id: 'a', eval_cases: [], creation_timestamp: 10n }), 'invalid_json', ''],
  ['JS cyclic object', () => { const s = clone(MINIMAL_SET); s.eval_cases[0].self = s; return api.loadEvalSet(s); }, 'invalid_json', ''],
  // --- wrong types, level by level
  ['eval_set_id number', () => api.loadEvalSet(setWith((s) => { s.eval_set_id = 5; })), 'schema', '$.eval_set_id'],
  ['eval_cases object', () => api.loadEvalSet(setWith((s) => { s.eval_cases = {}; })), 'schema', '$.eval_cases'],
  ['eval_cases[0] number', () => api.loadEvalSet(setWith((s) => { s.eval_cases[0] = 5; })), 'schema', '$.eval_cases[0]'],
  ['eval_id number', () => api.loadEvalSet(setWith((s, c) => { c.eval_id = 5; })), 'schema', /^\$\.eval_cases\[0\](\.eval_id)?$/],
  ['conversation string', () => api.loadEvalSet(setWith((s, c) => { c.conversation = 'hi'; })), 'schema', '$.eval_cases[0].conversation'],
  ['invocation number', () => api.loadEvalSet(setWith((s, c) => { c.conversation[0] = 5; })), 'schema', '$.eval_cases[0].conversation[0]'],
  ['user_content string', () => api.loadEvalSet(setWith((s, c, i) => { i.user_content = 'hi'; })), 'schema', '$.eval_cases[0].conversation[0].user_content'],
  ['parts object', () => api.loadEvalSet(setWith((s, c, i) => { i.user_content.parts = {}; })), 'schema', '$.eval_cases[0].conversation[0].user_content.parts'],
  ['part string', () => api.loadEvalSet(setWith((s, c, i) => { i.user_content.parts[0] = 'hi'; })), 'schema', '$.eval_cases[0].conversation[0].user_content.parts[0]'],
  ['part text number', () => api.loadEvalSet(setWith((s, c, i) => { i.user_content.parts[0].text = 5; })), 'schema', '$.eval_cases[0].conversation[0].user_content.parts[0].text'],
  ['part with unknown field', () => api.loadEvalSet(setWith((s, c, i) => { i.user_content.parts[0] = { txt: 'hi' }; })), 'schema', /^\$\.eval_cases\[0\]\.conversation\[0\]\.user_content\.parts\[0\]/],
  ['role number', () => api.loadEvalSet(setWith((s, c, i) => { i.final_response.role = 1; })), 'schema', '$.eval_cases[0].conversation[0].final_response.role'],
  ['tool args string', () => api.loadEvalSet(setWith((s, c, i) => { i.intermediate_data.tool_uses[0].args = 'x'; })), 'schema', '$.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args'],
  ['tool_uses object', () => api.loadEvalSet(setWith((s, c, i) => { i.intermediate_data.tool_uses = {}; })), 'schema', /^\$\.eval_cases\[0\]\.conversation\[0\]\.intermediate_data/],
  ['both intermediate shapes', () => api.loadEvalSet(setWith((s, c, i) => { i.intermediate_data.invocation_events = []; })), 'schema', /^\$\.eval_cases\[0\]\.conversation\[0\]\.intermediate_data/],
  ['invocation_events entry without author', () => api.loadEvalSet(setWith((s, c, i) => { i.intermediate_data = { invocation_events: [{ content: null }] }; })), 'schema', /^\$\.eval_cases\[0\]\.conversation\[0\]\.intermediate_data\.invocation_events\[0\]/],
  ['creation_timestamp string', () => api.loadEvalSet(setWith((s, c) => { c.creation_timestamp = 'yesterday'; })), 'schema', '$.eval_cases[0].creation_timestamp'],
  ['session_input number', () => api.loadEvalSet(setWith((s, c) => { c.session_input = 5; })), 'schema', '$.eval_cases[0].session_input'],
  ['session_input without app_name', () => api.loadEvalSet(setWith((s, c) => { delete c.session_input.app_name; })), 'schema', /^\$\.eval_cases\[0\]\.session_input/],
  ['rubric without rubric_id', () => api.loadEvalSet(setWith((s, c) => { c.rubrics = [{ rubric_content: { text_property: 'x' } }]; })), 'schema', /^\$\.eval_cases\[0\]\.rubrics\[0\]/],
  ['conversation_scenario number', () => api.loadEvalSet(setWith((s, c) => { delete c.conversation; c.conversation_scenario = 5; })), 'schema', '$.eval_cases[0].conversation_scenario'],
  // --- missing required fields
  ['missing eval_set_id', () => api.loadEvalSet(setWith((s) => { delete s.eval_set_id; })), 'schema', /^\$(\.eval_set_id)?$/],
  ['missing eval_cases', () => api.loadEvalSet(setWith((s) => { delete s.eval_cases; })), 'schema', /^\$(\.eval_cases)?$/],
  ['missing eval_id', () => api.loadEvalSet(setWith((s, c) => { delete c.eval_id; })), 'schema', /^\$\.eval_cases\[0\]/],
  ['missing user_content', () => api.loadEvalSet(setWith((s, c, i) => { delete i.user_content; })), 'schema', /^\$\.eval_cases\[0\]\.conversation\[0\]/],
  ['neither conversation nor scenario', () => api.loadEvalSet(setWith((s, c) => { delete c.conversation; })), 'schema', /^\$\.eval_cases\[0\]/],
  ['both conversation and scenario', () => api.loadEvalSet(setWith((s, c) => { c.conversation_scenario = { starting_prompt: 'hi', conversation_plan: 'p' }; })), 'schema', /^\$\.eval_cases\[0\]/],
  ['scenario without starting_prompt', () => api.loadEvalSet(setWith((s, c) => { delete c.conversation; c.conversation_scenario = { conversation_plan: 'p' }; })), 'schema', /^\$\.eval_cases\[0\]\.conversation_scenario/],
  // --- duplicates
  ['duplicate eval ids', () => api.loadEvalSet(setWith((s, c) => { s.eval_cases.push(clone(c)); })), 'duplicate_id', /^\$\.eval_cases\[1\]/],
  ['duplicate eval id after 50k cases', () => {
    const cases = Array.from({ length: 50000 }, (_, n) => ({ eval_id: `c${n}`, conversation: [] }));
    cases.push({ eval_id: 'c0', conversation: [] });
    return api.loadEvalSet({ eval_set_id: 'big', eval_cases: cases });
  }, 'duplicate_id', /^\$\.eval_cases\[50000\]/],
  ['duplicate JSON keys', () => api.loadEvalSet('{"eval_set_id":"a","eval_set_id":"b","eval_cases":[]}'), 'any'],
  // --- absurd nesting
  ['100k open brackets', () => api.loadEvalSet('['.repeat(100000)), 'invalid_json', ''],
  ['100k nested arrays', () => api.loadEvalSet(deepText(100000, '[', ']')), 'invalid_json'],
  // Unknown keys of an EvalSet are skipped without recursion, so this is just a set without id.
  ['100k nested objects under an ignored key', () => api.loadEvalSet(deepText(100000, '{"a":', '}')), ['invalid_json', 'schema']],
  ['100k nested objects under a kept case key', () => api.loadEvalSet(minimalText.replace('"eval_id":"case_1"', `"eval_id":"case_1","extra":${deepText(100000, '{"a":', '}')}`)), 'invalid_json'],
  ['200 nested arrays under a kept case key', () => api.loadEvalSet(minimalText.replace('"eval_id":"case_1"', `"eval_id":"case_1","extra":${deepText(200, '[', ']')}`)), 'invalid_json'],
  ['100k nested objects in session state', () => api.loadEvalSet(minimalText.replace('"state":{}', `"state":${deepText(100000, '{"a":', '}')}`)), 'invalid_json'],
  ['1M nested arrays', () => api.loadEvalSet(deepText(1000000, '[', ']')), 'invalid_json'],
  ['nesting 200 deep inside tool args', () => api.loadEvalSet(minimalText.replace('{"city":"Paris"}', `{"city":${deepText(200, '[', ']')}}`)), 'invalid_json'],
  ['nesting 100k deep as a JS object', () => api.loadEvalSet({ eval_set_id: 'a', eval_cases: nestedArrays(100000) }), 'invalid_json', ''],
  // --- huge values
  ['30 MB of garbage', () => api.loadEvalSet('x'.repeat(30 * MB)), 'invalid_json', ''],
  ['30 MB string where a list belongs', () => api.loadEvalSet({ eval_set_id: 'a', eval_cases: 'x'.repeat(30 * MB) }), ['schema', 'too_large'], /^(\$\.eval_cases)?$/],
  // Past 2^27 UTF-16 units the package refuses the text before copying it into wasm memory
  // (near 2^28 units of non-ASCII text the 4 GiB wasm32 memory runs out and the instance traps).
  ['text over the size limit', () => api.loadEvalSet('x'.repeat(2 ** 27 + 1)), 'too_large', ''],
  ['JS value over the size limit', () => api.loadEvalSet({ eval_set_id: 'x'.repeat(2 ** 27), eval_cases: [] }), 'too_large', ''],
  ['bytes over the size limit', () => api.loadEvalSet(new Uint8Array(3 * 2 ** 27 + 1)), 'too_large', ''],
  ['rouge1 over the size limit', () => api.rouge1('x'.repeat(2 ** 27 + 1), 'x'), 'too_large', ''],
  ['evaluateInvocations args over the size limit', () => api.evaluateInvocations({ evalCase: CASE, actual: [{ user_content: { parts: [{ text: 'x'.repeat(2 ** 27) }] } }] }), 'too_large', ''],
  ['30 MB unterminated string', () => api.loadEvalSet(`{"eval_set_id":"${'x'.repeat(30 * MB)}`), ['invalid_json', 'too_large'], ''],
];

// A huge but valid value must load intact (or be refused as too_large), never crash.
const hugeValid = [
  ['30 MB eval_set_id', () => {
    const id = 'é'.repeat(15 * MB);
    const s = api.loadEvalSet({ eval_set_id: id, eval_cases: [] });
    assert.equal(s.eval_set_id.length, id.length);
    assert.ok(s.eval_set_id === id);
  }, ['too_large']],
  ['20 MB final response', () => {
    const s = setWith((x, c, i) => { i.final_response.parts[0].text = 'sunny Paris '.repeat(Math.ceil(20 * MB / 12)); });
    assert.equal(api.loadEvalSet(s).eval_cases[0].conversation[0].final_response.parts[0].text.length, s.eval_cases[0].conversation[0].final_response.parts[0].text.length);
  }, ['too_large']],
  ['tool args nested 100 deep', () => {
    const text = minimalText.replace('{"city":"Paris"}', `{"city":${deepText(100, '[', ']')}}`);
    api.loadEvalSet(text);
  }, ['invalid_json']],
];

const configCases = [
  ['config truncated', () => api.loadEvalConfig('{"criteria": {'), 'invalid_json', ''],
  ['config root list', () => api.loadEvalConfig('[]'), 'schema'],
  ['config root string', () => api.loadEvalConfig('"x"'), 'schema'],
  ['criteria list', () => api.loadEvalConfig({ criteria: [] }), 'schema', /^\$\.criteria/],
  ['criterion null', () => api.loadEvalConfig({ criteria: { response_match_score: null } }), 'schema', /^\$\.criteria\.response_match_score/],
  ['criterion list', () => api.loadEvalConfig({ criteria: { response_match_score: [0.5] } }), 'schema', /^\$\.criteria\.response_match_score/],
  ['criterion non-numeric string', () => api.loadEvalConfig({ criteria: { response_match_score: 'high' } }), 'schema', /^\$\.criteria\.response_match_score/],
  ['criterion object without threshold', () => api.loadEvalConfig({ criteria: { tool_trajectory_avg_score: { match_type: 'EXACT' } } }), 'schema', /^\$\.criteria\.tool_trajectory_avg_score/],
  ['threshold string in object', () => api.loadEvalConfig({ criteria: { tool_trajectory_avg_score: { threshold: 'x' } } }), 'schema', /^\$\.criteria\.tool_trajectory_avg_score/],
  ['threshold 1e400', () => api.loadEvalConfig('{"criteria":{"response_match_score":1e400}}'), ['invalid_json', 'schema']],
  ['config nested 100k', () => api.loadEvalConfig(`{"criteria":${deepText(100000, '{"a":', '}')}}`), 'invalid_json'],
  ['config 20 MB metric name', () => api.loadEvalConfig({ criteria: { ['m'.repeat(20 * MB)]: 'x' } }), ['schema', 'too_large']],
];

const evaluateCases = [
  ['args null', () => api.evaluateInvocations(null), 'schema', ''],
  ['args string', () => api.evaluateInvocations('{}'), 'schema', ''],
  ['missing evalCase', () => api.evaluateInvocations({ actual: [] }), 'schema', /evalCase|^\$?$/],
  ['missing actual', () => api.evaluateInvocations({ evalCase: CASE }), 'schema', /actual|^\$?$/],
  ['evalCase empty text', () => api.evaluateInvocations({ evalCase: '', actual: [] }), 'invalid_json', ''],
  ['evalCase truncated text', () => api.evaluateInvocations({ evalCase: '{"eval_id":', actual: [] }), 'invalid_json'],
  ['evalCase text with trailing garbage', () => api.evaluateInvocations({ evalCase: `${JSON.stringify(CASE)} ]`, actual: [] }), 'invalid_json'],
  ['evalCase number', () => api.evaluateInvocations({ evalCase: 5, actual: [] }), 'schema', /evalCase/],
  ['evalCase list', () => api.evaluateInvocations({ evalCase: [CASE], actual: [] }), 'schema', /evalCase/],
  ['evalCase without eval_id', () => api.evaluateInvocations({ evalCase: { conversation: [] }, actual: [] }), 'schema', /evalCase/],
  ['actual object', () => api.evaluateInvocations({ evalCase: CASE, actual: {} }), 'schema', /actual/],
  ['actual[0] number', () => api.evaluateInvocations({ evalCase: CASE, actual: [5] }), 'schema', /actual\[0\]/],
  ['actual[0] without user_content', () => api.evaluateInvocations({ evalCase: CASE, actual: [{ invocation_id: 'x' }] }), 'schema', /actual\[0\]/],
  ['actual part with unknown field', () => api.evaluateInvocations({ evalCase: CASE, actual: [{ user_content: { parts: [{ bogus: 1 }] } }] }), 'schema', /actual\[0\]\.user_content\.parts\[0\]/],
  ['count mismatch', () => api.evaluateInvocations({ evalCase: CASE, actual: [...actualFor(), ...actualFor()] }), 'count_mismatch'],
  ['config malformed text', () => api.evaluateInvocations({ evalCase: CASE, actual: actualFor(), config: '{"criteria":' }), 'invalid_json'],
  ['config criterion null', () => api.evaluateInvocations({ evalCase: CASE, actual: actualFor(), config: { criteria: { response_match_score: null } } }), 'schema', /criteria\.response_match_score/],
  ['evalSetId number', () => api.evaluateInvocations({ evalCase: CASE, actual: actualFor(), evalSetId: 5 }), 'schema', /evalSetId/],
  ['includeInvocations string', () => api.evaluateInvocations({ evalCase: CASE, actual: actualFor(), includeInvocations: 'yes' }), 'schema', /includeInvocations/],
  ['rubric id on case and invocation', () => {
    const c = clone(CASE);
    const rubric = { rubric_id: 'r1', rubric_content: { text_property: 'polite' } };
    c.rubrics = [rubric];
    c.conversation[0].rubrics = [rubric];
    return api.evaluateInvocations({ evalCase: c, actual: actualFor() });
  }, ['duplicate_id', 'schema']],
  ['tool args nested 100k as a JS object', () => api.evaluateInvocations({ evalCase: CASE, actual: actualFor('x', [{ name: 'f', args: { a: nestedArrays(100000) } }]) }), 'invalid_json', ''],
  ['tool args nested 300 deep as text', () => api.evaluateInvocations({ evalCase: JSON.stringify(CASE), actual: JSON.stringify(actualFor('x', [{ name: 'f', args: { a: 0 } }])).replace('{"a":0}', `{"a":${deepText(300, '[', ']')}}`) }), 'invalid_json'],
  ['prepareCase bad actual', () => api.prepareCase({ evalCase: CASE, actual: [5] }), 'schema', /actual\[0\]/],
  ['prepareCase missing evalCase', () => api.prepareCase({ actual: [] }), 'schema'],
  ['formatReport malformed', () => api.formatReport('[{'), 'invalid_json'],
  ['formatReport list of numbers', () => api.formatReport([1, 2]), 'schema', /^\$\[0\]/],
  ['formatReport object', () => api.formatReport({ x: 1 }), 'schema'],
  ['formatReport bad options', () => api.formatReport([], { detailed: 'very' }), 'schema', /detailed/],
];

// Inputs that must succeed (deep-but-legal data, big texts) and give numbers, not errors.
const survivingEvaluations = [
  ['tool args nested 100 deep compare equal', async () => {
    const deep = JSON.parse(deepText(100, '[', ']'));
    const c = clone(CASE);
    c.conversation[0].intermediate_data.tool_uses = [{ name: 'f', args: { a: deep } }];
    const r = await api.evaluateInvocations({ evalCase: c, actual: actualFor('It is sunny in Paris.', [{ name: 'f', args: { a: deep } }]) });
    assert.equal(r.overall_eval_metric_results[0].score, 1);
  }],
  ['10 MB responses are scored', async () => {
    const big = 'the weather in paris is sunny and warm today '.repeat(Math.ceil(10 * MB / 45));
    const c = clone(CASE);
    c.conversation[0].final_response.parts[0].text = big;
    const r = await api.evaluateInvocations({ evalCase: c, actual: actualFor(big) });
    assert.equal(r.overall_eval_metric_results[1].score, 1);
  }],
  ['rouge1 on 10 MB strings', () => {
    const a = 'running runners ran quickly '.repeat(Math.ceil(10 * MB / 28));
    const r = api.rouge1(a, `${a} extra`);
    assert.equal(r.precision, 1);
    assert.ok(r.recall < 1 && r.recall > 0.99);
  }],
  ['rouge1 on a single 5 MB token', () => {
    const word = 'a'.repeat(5 * MB);
    assert.deepEqual(api.rouge1(word, word), { precision: 1, recall: 1, fmeasure: 1 });
  }],
  ['rouge1 on lone surrogates, NULs and controls', () => {
    const r = api.rouge1('\ud800 abc\u0000def \udfff', 'abc def');
    for (const v of Object.values(r)) assert.ok(Number.isFinite(v));
  }],
  ['rouge1 and rouge1Batch agree on lone surrogates', () => {
    const pairs = [['\ud800 cat', 'cat'], ['dog \udfff', 'dog cat'], ['\udc00\ud800', 'x']];
    const batch = api.rouge1Batch(pairs);
    pairs.forEach(([c, r], i) => {
      const one = api.rouge1(c, r);
      assert.deepEqual([batch.precision[i], batch.recall[i], batch.fmeasure[i]], [one.precision, one.recall, one.fmeasure], `pair ${i}`);
    });
    assert.equal(batch.fmeasure[0], 1, 'a lone surrogate is no part of a token, as in Python');
  }],
  ['rouge1 on every code point class', () => {
    let s = '';
    for (let cp = 0; cp < 0x30000; cp += 7) if (cp < 0xd800 || cp > 0xdfff) s += String.fromCodePoint(cp);
    const r = api.rouge1(s, s);
    for (const v of Object.values(r)) assert.ok(Number.isFinite(v));
  }],
];

async function expectOutcome(call, code, path) {
  let thrown;
  let value;
  try {
    value = await call();
  } catch (e) {
    thrown = e;
  }
  if (thrown instanceof WebAssembly.RuntimeError) {
    assert.fail(`the wasm instance trapped: ${thrown.message}\n${thrown.stack}`);
  }
  if (code === 'any') {
    if (thrown !== undefined) checkEvalError(api, thrown);
    return value;
  }
  checkEvalError(api, thrown, code, path);
  return undefined;
}

for (const [name, call, code, path] of [...loadCases, ...configCases, ...evaluateCases]) {
  test(`hostile: ${name}`, async () => {
    await expectOutcome(call, code, path);
    assertHealthy(api);
  });
}

for (const [name, check, allowedCodes] of hugeValid) {
  test(`hostile (valid): ${name}`, () => {
    try {
      check();
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) assert.fail(`the wasm instance trapped: ${e.message}`);
      if (!(e instanceof api.EvalError) || !allowedCodes.includes(e.code)) throw e;
    }
    assertHealthy(api);
  });
}

for (const [name, check] of survivingEvaluations) {
  test(`hostile (must score): ${name}`, async () => {
    await check();
    assertHealthy(api);
  });
}

test('hostile: the module still scores after the whole corpus', async () => {
  const r = await api.evaluateInvocations({ evalCase: CASE, actual: actualFor(), evalSetId: 'after' });
  assert.equal(r.final_eval_status, 'PASSED');
  assert.ok(INV.user_content);
});

test('hostile: a huge value where another type belongs gives a short error, not the value back', () => {
  const huge = 'x'.repeat(5e6);
  const set = clone(MINIMAL_SET);
  set.eval_cases[0].conversation[0].user_content = huge;
  const tries = [
    () => api.loadEvalSet(set),
    () => api.loadEvalSet(JSON.stringify(huge)),
    () => api.loadEvalSetResult({ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: huge }),
    // A Part refuses unknown fields, so a huge key is named in the error and its path.
    () => api.loadEvalSet({ eval_set_id: 's', eval_cases: [{ eval_id: 'c', conversation: [{ user_content: { parts: [{ [huge]: 1 }] } }] }] }),
  ];
  for (const f of tries) {
    const e = (() => { try { f(); } catch (err) { return err; } return null; })();
    assert.ok(e instanceof api.EvalError, String(e));
    assert.ok(e.message.length < 2_000, `message of ${e.message.length} characters`);
    assert.ok(e.path.length < 2_000, `path of ${e.path.length} characters`);
  }
});
