// The self-contained HTML report: `evalcore eval --format html` and toHtml from evalcore/reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHtml } from '../../pkg/lib/report/reports.js';
import { loadEvalSetResult } from '../../pkg/index.js';
import { hostileResult, PWN } from '../e2e/fixtures.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;

test('evalcore eval --format html --output: one file, no scripts, failing case first and explained', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalcore-html-'));
  cpSync(join(ROOT, 'examples', 'hello_world'), dir, { recursive: true });
  const out = join(dir, 'report.html');
  let code = 0;
  try {
    execFileSync(process.execPath, [join(ROOT, 'pkg', 'bin', 'evalcore.js'), 'eval', join(dir, 'agent.mjs'), join(dir, 'hello_world.evalset.json'),
      '--format', 'html', '--output', out], { stdio: 'pipe' });
  } catch (e) {
    code = e.status;
  }
  assert.equal(code, 1, 'check_listed_numbers fails on purpose');
  const html = readFileSync(out, 'utf8');
  assert.ok(html.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8">'));
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/);
  // The verdict in words on a badge: no emoji, which needs a font many machines lack.
  assert.match(html, /<h1><span class="verdict FAILED">FAILED<\/span> evalcore: 3 of 4 eval cases passed<\/h1>/);
  assert.doesNotMatch(html, /\p{Extended_Pictographic}/u);
  assert.doesNotMatch(html, /<script|<img|<link|src=|href=/i);
  const rows = [...html.matchAll(/<tr><td>([^<]+)<\/td><td><span class="b (\w+)">/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows[0], ['check_listed_numbers', 'FAILED']);
  assert.equal(rows.length, 4);
  assert.match(html, /<details><summary><span class="b FAILED">FAILED<\/span> check_listed_numbers<\/summary>/);
  assert.match(html, /check_prime\(nums=\[4, 7, 9\]\)/);
  assert.match(html, /check_prime\(nums=\[4, 7\]\)/);
});

test('toHtml escapes every text from the results and cuts 5 MB strings', () => {
  const html = toHtml(loadEvalSetResult(hostileResult()), { title: PWN[0] });
  assert.doesNotMatch(html, /<script>|<img |<svg |<a href/i);
  assert.ok(html.includes('&lt;script&gt;window.__pwned = &quot;script&quot;&lt;/script&gt;'));
  assert.ok(html.includes('&lt;img src=x onerror=&quot;window.__pwned = &#39;img&#39;&quot;&gt;'));
  assert.ok(html.length < 1_000_000, `${html.length} characters`);
  assert.match(html, /… \(\d+ more characters\)/);
});

test('toHtml: the verdict is a word on a coloured badge, PASSED, FAILED or NOT EVALUATED, never an emoji', () => {
  const metric = (eval_status) => ({ metric_name: 'response_match_score', threshold: 0.5, score: eval_status === 'NOT_EVALUATED' ? null : 0.7, eval_status, details: {} });
  const set = (...statuses) => ({
    eval_set_result_id: 'r', eval_set_id: 's', creation_timestamp: 1,
    eval_case_results: statuses.map((st, i) => ({ eval_set_id: 's', eval_id: `c${i}`, final_eval_status: st, overall_eval_metric_results: [metric(st)], eval_metric_result_per_invocation: [], session_id: '' })),
  });
  const h1 = (html) => /<h1>(.*)<\/h1>/.exec(html)[1];
  assert.equal(h1(toHtml(set('PASSED', 'PASSED'))), '<span class="verdict PASSED">PASSED</span> evalcore: 2 of 2 eval cases passed');
  assert.equal(h1(toHtml(set('PASSED', 'NOT_EVALUATED'))), '<span class="verdict NOT_EVALUATED">NOT EVALUATED</span> evalcore: 1 of 2 eval cases passed');
  assert.equal(h1(toHtml(set('NOT_EVALUATED', 'FAILED'))), '<span class="verdict FAILED">FAILED</span> evalcore: 0 of 2 eval cases passed');
  assert.equal(h1(toHtml(set())), '<span class="verdict FAILED">FAILED</span> evalcore: 0 of 0 eval cases passed');
  const html = toHtml(set('PASSED'));
  assert.doesNotMatch(html, /\p{Extended_Pictographic}/u);
  // The badge's colour is the status's own (the status class comes after .verdict and wins).
  assert.match(html, /\.PASSED\{background:#1a7f37\}/);
  assert.doesNotMatch(/\.verdict\{[^}]*\}/.exec(html)[0], /background/);
});
