// Reports over eval results: JUnit XML (checked well-formed by a strict XML 1.0 parser below, and
// read back), JSON with a summary, and the Markdown PR comment.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EvalError } from '../../pkg/index.js';
import { readEvalSetResult } from '../../pkg/lib/node/history.js';
import { escapeXmlAttr, escapeXmlText, explainCase, formatToolCall, groupResults, toHtml, toJson, toJUnit, toMarkdown } from '../../pkg/lib/report/reports.js';
import { ROOT } from './helpers.mjs';
import { elements, HOSTILE, HOSTILE_LINE, htmlText, noRenderer, renderGfm, tables, workflowCommands } from './support/hostile-output.mjs';

// ---------------------------------------------------------------------------------------------
// A strict XML 1.0 parser: throws on anything not well-formed, returns the element tree.

const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /^[A-Za-z_:][\w.:-]*/;

function decodeEntities(s, where) {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);)/.test(s)) throw new Error(`${where}: bare & in ${JSON.stringify(s)}`);
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/g, (_, e) => {
    const named = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e];
    if (named) return named;
    const cp = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    const ch = String.fromCodePoint(cp);
    if (!XML_CHAR.test(ch)) throw new Error(`${where}: character reference &${e}; is not an XML character`);
    return ch;
  });
}

export function parseXml(text) {
  if (!XML_CHAR.test(text)) throw new Error('document contains characters XML 1.0 does not allow');
  let i = 0;
  const decl = /^<\?xml\s+version="1\.0"(\s+encoding="UTF-8")?\s*\?>\s*/.exec(text);
  if (decl) i = decl[0].length;
  const root = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  while (i < text.length) {
    if (text[i] === '<') {
      if (text.startsWith('</', i)) {
        const m = /^<\/([A-Za-z_:][\w.:-]*)\s*>/.exec(text.slice(i));
        if (!m) throw new Error(`bad end tag at ${i}`);
        const open = stack.pop();
        if (open.name !== m[1]) throw new Error(`</${m[1]}> closes <${open.name}> at ${i}`);
        i += m[0].length;
        continue;
      }
      const nm = NAME.exec(text.slice(i + 1));
      if (!nm) throw new Error(`bad tag at ${i}`);
      const el = { name: nm[0], attrs: {}, children: [], text: '' };
      i += 1 + nm[0].length;
      for (;;) {
        const ws = /^\s*/.exec(text.slice(i))[0];
        i += ws.length;
        if (text.startsWith('/>', i)) { i += 2; stack.at(-1).children.push(el); break; }
        if (text[i] === '>') { i += 1; stack.at(-1).children.push(el); stack.push(el); break; }
        if (ws.length === 0) throw new Error(`attributes of <${el.name}> need white space at ${i}`);
        const am = /^([A-Za-z_:][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(text.slice(i));
        if (!am) throw new Error(`bad attribute in <${el.name}> at ${i}: ${text.slice(i, i + 30)}`);
        if (am[1] in el.attrs) throw new Error(`duplicate attribute ${am[1]} in <${el.name}>`);
        el.attrs[am[1]] = decodeEntities(am[3] ?? am[4], `<${el.name} ${am[1]}>`).replace(/[\t\n\r]/g, ' ');
        // Literal white space in an attribute is normalised; our writer must use references.
        if (/[\t\n\r]/.test(am[3] ?? am[4])) throw new Error(`raw white space control in attribute ${am[1]}`);
        el.attrs[am[1]] = decodeEntities(am[3] ?? am[4], `<${el.name} ${am[1]}>`);
        i += am[0].length;
      }
      continue;
    }
    const next = text.indexOf('<', i);
    const chunk = text.slice(i, next === -1 ? text.length : next);
    if (chunk.includes(']]>')) throw new Error(']]> in text');
    if (stack.length === 1 && chunk.trim() !== '') throw new Error('text outside the root element');
    stack.at(-1).text += decodeEntities(chunk, `<${stack.at(-1).name}> text`);
    i += chunk.length;
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1).name}> is never closed`);
  if (root.children.length !== 1) throw new Error(`expected one root element, found ${root.children.length}`);
  return root.children[0];
}

const kids = (el, name) => el.children.filter((c) => c.name === name);

// ---------------------------------------------------------------------------------------------
// Fixtures

const ADK = readEvalSetResult(readFileSync(join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json'), 'utf8'));

function metric(name, status, score, threshold = 0.5, extra = {}) {
  return { metric_name: name, threshold, criterion: threshold === null ? null : { threshold }, score, eval_status: status, details: {}, ...extra };
}

function caseResult(evalId, status, metrics, extra = {}) {
  return {
    eval_set_id: 'set', eval_id: evalId, final_eval_status: status, overall_eval_metric_results: metrics,
    eval_metric_result_per_invocation: [], session_id: 's', ...extra,
  };
}

const NASTY = 'a<b>&"c\'\u0001\uD800 ]]> \n\tz';

describe('JUnit XML', () => {
  test("one suite per eval set, one testcase per case; ADK's own file converts", () => {
    const doc = parseXml(toJUnit(ADK));
    assert.equal(doc.name, 'testsuites');
    assert.deepEqual([doc.attrs.tests, doc.attrs.failures, doc.attrs.errors], ['4', '1', '0']);
    const [suite] = kids(doc, 'testsuite');
    assert.equal(suite.attrs.name, 'hello_world');
    const cases = kids(suite, 'testcase');
    assert.deepEqual(cases.map((c) => c.attrs.name), ['greeting', 'roll_and_check', 'roll_twice_then_check', 'check_listed_numbers']);
    assert.deepEqual(cases.map((c) => kids(c, 'failure').length), [0, 0, 0, 1]);
    const [failure] = kids(cases[3], 'failure');
    assert.equal(failure.attrs.type, 'FAILED');
    assert.match(failure.attrs.message, /^tool_trajectory_avg_score: FAILED, score 0, threshold 1$/);
    assert.match(failure.text, /expected_tool_calls: check_prime\(nums=\[4, 7, 9\]\)/);
    assert.match(failure.text, /actual_tool_calls: {3}check_prime\(nums=\[4, 7\]\)/);
    assert.match(kids(cases[0], 'system-out')[0].text, /response_match_score: PASSED, score 0\.7556, threshold 0\.5/);
  });

  test('NOT_EVALUATED fails the testcase (as it fails adk eval); an agent error is an <error>', () => {
    const doc = parseXml(toJUnit({
      eval_set_id: 'set',
      eval_case_results: [
        caseResult('ne', 'NOT_EVALUATED', [metric('final_response_match_v2', 'NOT_EVALUATED', null, 0.5, { details: { error: 'needs a judge' } })]),
        caseResult('crash', 'FAILED', [], { error: { code: 'agent_error', message: 'the agent threw' } }),
        caseResult('ok', 'PASSED', [metric('m', 'PASSED', 1)]),
      ],
    }));
    const [ne, crash, ok] = kids(kids(doc, 'testsuite')[0], 'testcase');
    assert.equal(kids(ne, 'failure')[0].attrs.type, 'NOT_EVALUATED');
    assert.match(kids(ne, 'failure')[0].attrs.message, /not evaluated: .*needs a judge/);
    assert.equal(kids(crash, 'error')[0].attrs.type, 'agent_error');
    assert.match(kids(crash, 'error')[0].attrs.message, /the agent threw/);
    assert.equal(kids(ok, 'failure').length + kids(ok, 'error').length, 0);
    const suite = kids(doc, 'testsuite')[0];
    assert.deepEqual([suite.attrs.tests, suite.attrs.failures, suite.attrs.errors], ['3', '1', '1']);
  });

  test('several runs: one testcase per case and run; several sets: one suite each', () => {
    const run = (r, status) => ({ eval_set_id: 'a', eval_case_results: [caseResult('c', status, [metric('m', status, 1)], { eval_set_id: 'a', run: r })] });
    const doc = parseXml(toJUnit([run(0, 'PASSED'), run(1, 'FAILED'), { eval_set_id: 'b', eval_case_results: [caseResult('d', 'PASSED', [], { eval_set_id: 'b' })] }]));
    const suites = kids(doc, 'testsuite');
    assert.deepEqual(suites.map((s) => s.attrs.name), ['a', 'b']);
    assert.deepEqual(kids(suites[0], 'testcase').map((c) => c.attrs.name), ['c (run 1)', 'c (run 2)']);
    assert.deepEqual(kids(suites[1], 'testcase').map((c) => c.attrs.name), ['d']);
    // Runs told apart by position when results carry no run field (files read back, one per run).
    const plain = (status) => ({ eval_set_id: 'a', eval_case_results: [caseResult('c', status, [], { eval_set_id: 'a' })] });
    assert.deepEqual(kids(kids(parseXml(toJUnit([plain('PASSED'), plain('PASSED')])), 'testsuite')[0], 'testcase').map((c) => c.attrs.name),
      ['c (run 1)', 'c (run 2)']);
  });

  test('escaping: markup characters, quotes, newlines, and characters XML cannot hold', () => {
    const xml = toJUnit({
      eval_set_id: NASTY,
      eval_case_results: [caseResult(NASTY, 'FAILED', [metric(NASTY, 'FAILED', 0.25)], { eval_set_id: NASTY })],
    });
    const doc = parseXml(xml);
    const suite = kids(doc, 'testsuite')[0];
    const tc = kids(suite, 'testcase')[0];
    // Results are read through the core's model, where a lone surrogate is U+FFFD (as in any
    // string that enters wasm); escapeXmlText itself writes one it is given as `\ud800`.
    const visible = 'a<b>&"c\'\\u0001\uFFFD ]]> \n\tz';
    assert.equal(escapeXmlText('a\uD800b'), 'a\\ud800b');
    assert.equal(suite.attrs.name, visible);
    assert.equal(tc.attrs.name, visible);
    assert.ok(kids(tc, 'failure')[0].text.startsWith(`${visible}: FAILED, score 0.25`));
    assert.equal(escapeXmlText('x\uD83D\uDE00y'), 'x\uD83D\uDE00y', 'a valid surrogate pair is kept');
    assert.equal(escapeXmlAttr('\r'), '&#13;');
  });

  test('an empty list gives an empty, well-formed report', () => {
    const doc = parseXml(toJUnit([]));
    assert.equal(doc.attrs.tests, '0');
    assert.equal(doc.children.length, 0);
  });
});

describe('JSON', () => {
  test('summary counts, ok flag, results kept', () => {
    const out = JSON.parse(toJson(ADK));
    assert.equal(out.ok, false);
    assert.deepEqual(out.summary, {
      total: 4, passed: 3, failed: 1, not_evaluated: 0, not_evaluated_metrics: 0, not_evaluated_reasons: {},
      eval_sets: [{ eval_set_id: 'hello_world', runs: 1, total: 4, passed: 3, failed: 1, not_evaluated: 0, not_evaluated_metrics: 0, not_evaluated_reasons: {} }],
    });
    assert.equal(out.eval_set_results[0].eval_case_results.length, 4);
    const passing = { eval_set_id: 's', eval_case_results: [caseResult('a', 'PASSED', [])] };
    assert.equal(JSON.parse(toJson(passing)).ok, true);
    assert.equal(JSON.parse(toJson({ eval_set_id: 's', eval_case_results: [caseResult('a', 'NOT_EVALUATED', [])] })).ok, false);
    assert.equal(JSON.parse(toJson([])).ok, false, 'nothing ran is not ok');
  });

  test('case results and integer statuses are accepted', () => {
    const out = JSON.parse(toJson([caseResult('a', 1, []), caseResult('b', 3, [])]));
    assert.deepEqual([out.summary.passed, out.summary.not_evaluated], [1, 1]);
    assert.deepEqual(groupResults([caseResult('a', 'PASSED', [])])[0].evalSetId, 'set');
  });
});

describe('Markdown', () => {
  test('verdict, set table, failing cases first with scores against thresholds, collapsible details', () => {
    const md = toMarkdown(ADK);
    const lines = md.split('\n');
    assert.equal(lines[0], '### ❌ evalcore: 3 of 4 eval cases passed');
    assert.ok(lines.includes('| hello_world | 3 | 1 | 0 | 1 |'), md);
    assert.ok(lines.includes('|  | eval case | tool_trajectory_avg_score (≥ 1) | response_match_score (≥ 0.5) |'), md);
    const rows = lines.filter((l) => /^\| (✅|❌)/.test(l));
    assert.deepEqual(rows, [
      '| ❌ | check_listed_numbers | **0** ❌ | 0.8333 |',
      '| ✅ | greeting | 1 | 0.7556 |',
      '| ✅ | roll_and_check | 1 | 0.8571 |',
      '| ✅ | roll_twice_then_check | 1 | 0.9412 |',
    ]);
    assert.equal(md.match(/<details>/g).length, 1);
    assert.match(md, /<summary>❌ check_listed_numbers: tool_trajectory_avg_score: FAILED, score 0, threshold 1<\/summary>/);
    assert.match(md, /\n<pre>[^\n]*&#10;  actual_tool_calls: {3}check_prime\(nums=\[4, 7\]\)[^\n]*<\/pre>\n/, 'the explanation is one <pre> line');
  });

  test('all passing: a green verdict and no details', () => {
    const md = toMarkdown({ eval_set_id: 's', eval_case_results: [caseResult('a', 'PASSED', [metric('m', 'PASSED', 0.9)])] });
    assert.ok(md.startsWith('### ✅ evalcore: 1 of 1 eval case passed'));
    assert.ok(!md.includes('<details>'));
  });

  test('cells cannot break the table or inject HTML; backticks in the explanation stay text', () => {
    const md = toMarkdown({
      eval_set_id: 's|<x>',
      eval_case_results: [caseResult('a|b\n<script>', 'FAILED', [metric('m', 'FAILED', 0.1, 0.5, {})], {
        eval_set_id: 's|<x>',
        eval_metric_result_per_invocation: [{
          actual_invocation: { user_content: { parts: [{ text: 'has ``` and ```` inside' }] }, final_response: { parts: [{ text: 'no' }] } },
          expected_invocation: null,
          eval_metric_results: [metric('m', 'FAILED', 0.1)],
        }],
      })],
    });
    assert.ok(md.includes('| s\\|\\<x\\> |'), md);
    assert.ok(md.includes('a\\|b \\<script\\>'), md);
    assert.ok(!md.includes('<script>'));
    assert.ok(md.includes('<summary>❌ a|b &lt;script&gt;: m: FAILED'), 'the summary stays on one line');
    assert.match(md, /\n<pre>[^\n]*has ``` and ```` inside[^\n]*<\/pre>\n/);
  });

  test('with a run summary: averaged scores, per-run statuses, flaky marker', () => {
    const r = (run, status, score) => caseResult('c', status, [metric('m', status, score, 0.5)], { run });
    const md = toMarkdown({
      eval_set_id: 'set',
      eval_case_results: [r(0, 'PASSED', 0.9), r(1, 'FAILED', 0.3)],
      run_summary: {
        num_runs: 2,
        cases: [{
          eval_id: 'c', statuses: ['PASSED', 'FAILED'], flipped: true,
          metrics: [{ metric_name: 'm', threshold: 0.5, informational: false, case_scores: [0.9, 0.3], min: 0.3, mean: 0.6, max: 0.9, stddev: 0.3, invocation_mean: 0.6, lower_is_better: false, passed: true }],
        }],
      },
    });
    assert.ok(md.includes('|  | eval case | runs | m (≥ 0.5) |'), md);
    assert.ok(md.includes('| ❌ | c | ✅❌ flaky | 0.6 ±0.3 |'), md);
    assert.equal(md.match(/<details>/g).length, 1, 'the failing run has its details');
  });

  test('maxDetails bounds the collapsible blocks', () => {
    const cases = Array.from({ length: 5 }, (_, i) => caseResult(`c${i}`, 'FAILED', [metric('m', 'FAILED', 0)]));
    const md = toMarkdown({ eval_set_id: 'set', eval_case_results: cases }, { maxDetails: 2 });
    assert.equal(md.match(/<details>/g).length, 2);
    assert.match(md, /_3 more failing case\(s\) not shown\._/);
  });
});

test('explainCase names the failing metrics and invocations', () => {
  const text = explainCase(ADK.eval_case_results[3]);
  assert.match(text, /^tool_trajectory_avg_score: FAILED, score 0, threshold 1\nresponse_match_score: PASSED/);
  assert.match(text, /invocation 1 of 1\n {2}prompt: {14}Which of 4, 7 and 9 are prime\?/);
  assert.ok(!/token_usage_v1/.test(text), 'informational metrics are not reasons');
});

test('Markdown rows: failing first, then each case with its runs together', () => {
  const r = (id, run, status) => caseResult(id, status, [metric('m', status, status === 'PASSED' ? 1 : 0)], { run });
  const md = toMarkdown({ eval_set_id: 'set', eval_case_results: [r('a', 0, 'PASSED'), r('b', 0, 'FAILED'), r('a', 1, 'PASSED'), r('b', 1, 'PASSED')] });
  const rows = md.split('\n').filter((l) => /^\| (✅|❌)/.test(l)).map((l) => l.split(' | ')[1]);
  assert.deepEqual(rows, ['b (run 1)', 'a (run 1)', 'a (run 2)', 'b (run 2)']);
});

test('input that is not results is an EvalError with the path of what is wrong, a null case result too', () => {
  const cases = [
    [null, '$'],
    [[null], '$[0]'],
    [[{ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: [] }, 42], '$[1]'],
    [{ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: [null] }, '$.eval_case_results[0]'],
    [{ eval_set_result_id: 'r', eval_set_id: 's', eval_case_results: [42] }, '$.eval_case_results[0]'],
    [{ eval_set_result_id: 'r', eval_case_results: [] }, '$.eval_set_id'],
  ];
  for (const [bad, path] of cases) {
    for (const report of [toJUnit, toJson, toMarkdown, groupResults]) {
      assert.throws(() => report(bad), (e) => e instanceof EvalError && e.code === 'schema' && e.path === path,
        `${report.name}(${JSON.stringify(bad)}) at ${path}`);
    }
  }
});

describe('what could not be evaluated is counted in every report', () => {
  const notEvaluated = (name, reason, error) => metric(name, 'NOT_EVALUATED', null, 0.5, { details: { reason, error } });
  // A dead judge under ADK's rule: the case PASSED on response_match_score, the judged metric
  // came back NOT_EVALUATED.
  const dead = {
    eval_set_result_id: 'r', eval_set_id: 'set',
    eval_case_results: [
      caseResult('a', 'PASSED', [metric('response_match_score', 'PASSED', 0.9), notEvaluated('final_response_match_v2', 'judge_error', 'the judge is unreachable: ECONNREFUSED')]),
      caseResult('b', 'PASSED', [metric('response_match_score', 'PASSED', 0.8), notEvaluated('final_response_match_v2', 'judge_error', 'the judge is unreachable: ECONNREFUSED')]),
    ],
  };

  test('JSON: counts per reason; ok stays ADK\'s verdict unless strict', () => {
    const out = JSON.parse(toJson(dead));
    assert.equal(out.ok, true);
    assert.equal(out.summary.not_evaluated_metrics, 2);
    assert.deepEqual(out.summary.not_evaluated_reasons, { judge_error: 2 });
    assert.equal(out.summary.eval_sets[0].not_evaluated_metrics, 2);
    assert.equal(JSON.parse(toJson(dead, { strict: true })).ok, false);
  });

  test('JUnit: suite properties count them; strict fails the case with the reason', () => {
    const suite = kids(parseXml(toJUnit(dead)), 'testsuite')[0];
    const props = Object.fromEntries(kids(kids(suite, 'properties')[0], 'property').map((p) => [p.attrs.name, p.attrs.value]));
    assert.deepEqual(props, { 'evalcore.not_evaluated_metrics': '2', 'evalcore.not_evaluated.judge_error': '2' });
    assert.equal(kids(kids(suite, 'testcase')[0], 'failure').length, 0, 'ADK\'s rule: the case passed');
    const strict = kids(parseXml(toJUnit(dead, { strict: true })), 'testsuite')[0];
    const failure = kids(kids(strict, 'testcase')[0], 'failure')[0];
    assert.equal(failure.attrs.type, 'NOT_EVALUATED');
    assert.match(failure.attrs.message, /^not evaluated: final_response_match_v2: NOT_EVALUATED \(judge_error\), score n\/a, threshold 0\.5 — the judge is unreachable: ECONNREFUSED$/);
  });

  test('Markdown: a warning line under the verdict; strict turns the verdict', () => {
    const md = toMarkdown(dead).split('\n');
    assert.equal(md[0], '### ✅ evalcore: 2 of 2 eval cases passed');
    assert.equal(md[2], '> ⚠️ 2 metric results were NOT_EVALUATED: judge_error ×2 (final_response_match_v2)');
    assert.ok(toMarkdown(dead, { strict: true }).startsWith('### ❌'));
    assert.ok(!toMarkdown(ADK).includes('NOT_EVALUATED:'), 'nothing to say, nothing said');
  });
});

describe('defects a new user hit', () => {
  test("Markdown: a failing case's <summary> names the metric that failed, not the first one", () => {
    const r = caseResult('c', 'FAILED', [metric('response_match_score', 'PASSED', 0.9), metric('tool_trajectory_avg_score', 'FAILED', 0, 1)]);
    const summary = toMarkdown({ eval_set_result_id: 'r', eval_set_id: 'set', eval_case_results: [r] }).split('\n').find((l) => l.startsWith('<details>'));
    assert.equal(summary, '<details><summary>❌ c: tool_trajectory_avg_score: FAILED, score 0, threshold 1</summary>');
  });

  test('Markdown: 4 cases run twice are 4 cases, not 8', () => {
    const runs = ['a', 'b', 'c', 'd'].flatMap((id) => [0, 1].map((run) => caseResult(id, id === 'd' && run === 1 ? 'FAILED' : 'PASSED', [metric('m', 'PASSED', 1)], { run })));
    const md = toMarkdown({ eval_set_result_id: 'r', eval_set_id: 'set', eval_case_results: runs });
    assert.equal(md.split('\n')[0], '### ❌ evalcore: 3 of 4 eval cases passed in all 2 runs (7 of 8 case runs passed)');
  });

  test("tool calls read as in ADK's detailed output (Python's form), in the reports too", () => {
    assert.equal(formatToolCall({ name: 'get_weather', args: { city: 'Paris', days: 2, exact: true, tags: ['a'], none: null } }),
      "get_weather(city='Paris', days=2, exact=True, tags=['a'], none=None)");
  });
});

test('a trajectory mismatch is explained under its metric in explainCase, Markdown and JUnit', async () => {
  const api = await import('../../pkg/index.js');
  const turn = (calls) => ({ user_content: { role: 'user', parts: [{ text: 'book it' }] },
    final_response: { role: 'model', parts: [{ text: 'ok' }] }, intermediate_data: { tool_uses: calls } });
  const book = (date, id) => ({ name: 'book', args: { date, request_id: id } });
  const config = { criteria: { tool_trajectory_avg_score: { threshold: 1, arg_policies: { book: { request_id: 'ignore' } } } } };
  const result = await api.evaluateInvocations({
    evalCase: { eval_id: 'c', conversation: [turn([book('2026-01-01', 1)])] },
    actual: [turn([book('2026-01-02', 2)])], config, evalSetId: 's' });
  const text = explainCase(result);
  assert.match(text, /tool_trajectory_avg_score: FAILED \(score 0, threshold 1\)\n {4}match type EXACT\n {4}expected call 1 book -> no match: arguments differ, nearest actual call 1\n {6}date \[exact\] differs: expected "2026-01-01", actual "2026-01-02"/);
  assert.ok(!/request_id \[/.test(text), 'the ignored argument is not a reason');
  assert.match(toMarkdown([result]), /date \[exact\] differs/);
  assert.match(toJUnit([result]), /date \[exact\] differs/);
  // The same arguments under an ADK config that agrees: no explanation at all.
  const same = await api.evaluateInvocations({
    evalCase: { eval_id: 'c', conversation: [turn([book('2026-01-01', 1)])] },
    actual: [turn([book('2026-01-01', 2)])], config, evalSetId: 's' });
  const m = same.eval_metric_result_per_invocation[0].eval_metric_results.find((x) => x.metric_name === 'tool_trajectory_avg_score');
  assert.equal(m.score, 1);
  assert.equal(m.details.trajectory, undefined);
});

// ---------------------------------------------------------------------------------------------
// Data is data: ids, metric names, reasons and answers that try to be markup or CI commands

/** A failing case whose every text is HOSTILE: set and case ids, metric name, reason, the answer. */
function hostileResult() {
  const m = metric(HOSTILE, 'NOT_EVALUATED', null, 0.5, { details: { reason: 'judge_error', error: HOSTILE } });
  const failed = metric('response_match_score', 'FAILED', 0.25);
  return {
    eval_set_id: HOSTILE,
    eval_case_results: [caseResult(HOSTILE, 'FAILED', [failed, m], {
      eval_set_id: HOSTILE,
      eval_metric_result_per_invocation: [{
        actual_invocation: { user_content: { parts: [{ text: HOSTILE }] }, final_response: { parts: [{ text: HOSTILE }] } },
        expected_invocation: null,
        eval_metric_results: [failed, m],
      }],
    })],
  };
}

/** No line of `text` is a workflow command and none starts with data (`::`, a forged heading). */
function commandFree(text, what) {
  assert.deepEqual(workflowCommands(text), [], `${what}: the runner reads no command`);
  for (const line of text.split(/\r\n|\r|\n/)) {
    assert.doesNotMatch(line, /^\s*(::|### Verdict)/, `${what}: a line starts with data: ${JSON.stringify(line)}`);
  }
}

describe('data is data in every report format', () => {
  test('Markdown, as GitHub renders it: the cells hold the data, no image, link or heading comes from it', async (t) => {
    const result = hostileResult();
    const md = toMarkdown(result);
    commandFree(md, 'Markdown');
    if (noRenderer) return t.skip(noRenderer);
    const html = await renderGfm(md);
    const allowed = new Set(['h3', 'h4', 'p', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'strong', 'details', 'summary', 'pre']);
    assert.deepEqual(elements(html).filter((e) => !allowed.has(e)), [], html);
    assert.equal(elements(html).filter((e) => /^h\d$/.test(e)).join(), 'h3,h4', 'the verdict and the one set are the only headings');
    assert.equal(htmlText(/<h4>([\s\S]*?)<\/h4>/.exec(html)[1]), HOSTILE_LINE);
    assert.match(htmlText(/<h3>([\s\S]*?)<\/h3>/.exec(html)[1]), /^❌ evalcore: 0 of 1 eval case passed$/);
    const [sets, cases] = tables(html);
    assert.deepEqual(sets, [['eval set', 'passed', 'failed', 'not evaluated', 'runs'], [HOSTILE_LINE, '0', '1', '0', '1']]);
    assert.deepEqual(cases, [['', 'eval case', 'response_match_score (≥ 0.5)', `${HOSTILE_LINE} (≥ 0.5)`], ['❌', HOSTILE_LINE, '0.25 ❌', 'n/a ⚠️']]);
    const oneLine = (s) => s.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ');
    assert.ok(htmlText(/<summary>([\s\S]*?)<\/summary>/.exec(html)[1]).startsWith(`❌ ${oneLine(HOSTILE)}: response_match_score: FAILED`));
    assert.equal(htmlText(/<pre>([\s\S]*?)<\/pre>/.exec(html)[1]), explainCase(result.eval_case_results[0]).replace(/\r\n?/g, '\n'));
    assert.match(htmlText(html), /NOT_EVALUATED: judge_error ×1 \(e ::error::forged CR ### Verdict/, 'the warning line names the metric as it is');
  });

  test('JUnit XML, JSON and HTML: read back they hold the data; no line of them is a command', () => {
    const result = hostileResult();
    const xml = toJUnit(result);
    commandFree(xml, 'JUnit');
    const tc = kids(kids(parseXml(xml), 'testsuite')[0], 'testcase')[0];
    assert.equal(tc.attrs.name, HOSTILE);
    assert.ok(kids(tc, 'failure')[0].text.includes(HOSTILE.slice(HOSTILE.indexOf('![i]'))), 'the answer is in the failure as it is');
    const json = toJson(result);
    commandFree(json, 'JSON');
    assert.equal(JSON.parse(json).eval_set_results[0].eval_case_results[0].eval_id, HOSTILE);
    commandFree(toHtml(result), 'HTML');
    assert.equal(escapeXmlText('a\r\nb ##[x]'), 'a&#13;&#10;b ##&#91;x]');
  });
});
