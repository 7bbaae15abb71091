// 10,000 cases x 3 invocations (generated here): the run opens, the table keeps only the rows
// in view in the DOM (a bounded number, whatever the machine's load), scrolling reaches the last
// case, filters and sorts stay exact, and the file picker opens the same file. How fast it opens
// is measured by benches/browser/viewer.mjs, not here: a loaded machine takes longer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bigResult, writeAll } from './fixtures.mjs';
import { launch, serve, open, shot, tableRows } from './helpers.mjs';

const N = 10_000;
// How long a page may take to open the file before the test gives up: a hang, not a speed bound
// (a quiet machine takes about 2 s).
const LOAD_MS = 120_000;
let browser, server, file, expected;

before(async () => {
  const text = bigResult(N, 3);
  const parsed = JSON.parse(text);
  expected = {
    failed: parsed.eval_case_results.filter((c) => c.final_eval_status === 2).length,
    notEvaluated: parsed.eval_case_results.filter((c) => c.overall_eval_metric_results.some((m) => m.eval_status === 3)).length,
    failedFirstTen: parsed.eval_case_results.filter((c) => c.final_eval_status === 2 && /^case-0000\d$/.test(c.eval_id)).map((c) => c.eval_id),
  };
  [file] = writeAll('big', { 'big.evalset_result.json': text });
  browser = await launch();
  server = await serve([file]);
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test(`${N.toLocaleString('en-US')} cases x 3 invocations open and render only the rows in view`, async () => {
  const { page, log } = await open(browser, server.url, { timeout: LOAD_MS });
  assert.match(await page.locator('#notice').innerText(), /^Loaded 1 file in \d+ ms\.$/);
  assert.match(await page.locator('#shown').innerText(), /^10,000 of 10,000 cases/);
  const inDom = await page.locator('[role=table][aria-label=Cases] [role=row]').count();
  assert.ok(inDom > 10 && inDom < 120, `${inDom} rows in the DOM`);
  assert.equal(await page.getAttribute('[role=table][aria-label=Cases]', 'aria-rowcount'), String(N + 1));
  // NOT_EVALUATED reasons counted.
  assert.match(await page.locator('.reasons').innerText(), new RegExp(`tool_trajectory_avg_score\\s+${expected.notEvaluated}\\s+the agent made no tool calls to compare`));
  // Sorted by id and scrolled to the end: the last case is rendered, with its aria-rowindex.
  await page.click('[role=columnheader]:has-text("eval id")');
  await page.locator('.viewport').evaluate((v) => { v.scrollTop = v.scrollHeight; });
  await page.waitForSelector(`[role=row][aria-rowindex="${N + 1}"]`);
  assert.match(await page.locator(`[role=row][aria-rowindex="${N + 1}"]`).innerText(), /case-09999/);
  await shot(page, 'big-run-scrolled');
  await page.selectOption('#f-status', 'FAILED');
  await page.waitForFunction((n) => document.getElementById('shown').textContent.startsWith(`${n.toLocaleString('en-US')} of`), expected.failed);
  await page.fill('#f-text', '^case-0000\\d\\b');
  await page.waitForFunction((n) => document.getElementById('shown').textContent === `${n} of 10,000 cases`, expected.failedFirstTen.length);
  assert.ok(expected.failedFirstTen.length > 0);
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => [r[0], r[1]]).sort(), expected.failedFirstTen.map((id) => [id, 'FAILED']));
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the picker opens the same file; a case of the big run opens with its invocations', async () => {
  const { page, log } = await open(browser, server.origin + '/www/index.html');
  await page.setInputFiles('#open-files', file);
  await page.waitForFunction(() => document.getElementById('notice').textContent.startsWith('Loaded'), null, { timeout: LOAD_MS });
  assert.match(await page.locator('#notice').innerText(), /^Loaded 1 file in \d+ ms\.$/);
  assert.equal(await page.locator('#run-pick option').count(), 1);
  assert.match(await page.locator('#shown').innerText(), /^10,000 of 10,000 cases/);
  const inDom = await page.locator('[role=table][aria-label=Cases] [role=row]').count();
  assert.ok(inDom > 10 && inDom < 120, `${inDom} rows in the DOM`);
  await page.locator('[role=row][aria-rowindex="2"]').click();
  await page.waitForSelector('article.case');
  assert.equal(await page.locator('section.invocation').count(), 3);
  assert.deepEqual(log.errors, []);
  await page.close();
});
