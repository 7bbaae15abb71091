// The self-contained HTML report: `evalcore eval --format html` and toHtml from evalcore/reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHtml } from '../../pkg/lib/reports.js';
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
  assert.match(html, /<h1>❌ evalcore: 3 of 4 eval cases passed<\/h1>/);
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
