// Runs as a person meets them in the viewer, on real runs of hello_world judged by a local
// OpenAI-compatible judge: the newest run opens by default, runs carry their `--run_name` label
// and times to the second; a judged run rescored without a judge is "not comparable", never a
// regression; the comparison's columns stay on one grid, scrolled or not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bigResult, judgedRuns, writeAll } from './fixtures.mjs';
import { launch, serve, open, shot, tableRows, startJudge } from './helpers.mjs';

let browser, judge, runs, server;
before(async () => {
  judge = await startJudge();
  runs = await judgedRuns(judge.url);
  browser = await launch();
  // The older run first: the page must still open the newest.
  server = await serve([runs.judged, runs.labelled]);
});
after(async () => { await browser?.close(); await server?.close(); await judge?.close(); });

const selectedText = (page, id) => page.$eval(`#${id}`, (sel) => sel.options[sel.selectedIndex].textContent);

test('the newest run opens by default, its label first and its time to the second; the Files view shows the label', async () => {
  const labelled = JSON.parse(readFileSync(runs.labelled, 'utf8'));
  assert.equal(labelled.eval_set_result_name, 'prompt v2');
  const { page, log } = await open(browser, server.url);
  const picked = await selectedText(page, 'run-pick');
  assert.match(picked, /^prompt v2 — .*hello_world \(4 results, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
  const stamp = new Date(labelled.creation_timestamp * 1000).toISOString().slice(0, 19).replace('T', ' ');
  assert.ok(picked.includes(`${stamp} UTC`), `${picked} has ${stamp}`);
  // Newest first in the list; the unlabelled run shows no label.
  const options = await page.$$eval('#run-pick option', (os) => os.map((o) => o.textContent));
  assert.match(options[0], /^prompt v2 — /);
  assert.doesNotMatch(options[1], / — .* — .* — /);
  await shot(page, 'run-newest-labelled');
  await page.click('#tabs a[data-view=files]');
  await page.locator('table.files .run-label').first().waitFor();
  assert.deepEqual(await page.locator('table.files .run-label').allInnerTexts(), ['prompt v2']);
  // Compare opens on the newest against the one before it.
  await page.click('#tabs a[data-view=compare]');
  await page.waitForSelector('[role=table][aria-label=Comparison]');
  assert.match(await selectedText(page, 'cand-pick'), /^prompt v2 — /);
  assert.doesNotMatch(await selectedText(page, 'base-pick'), /^prompt v2/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a judged run rescored without a judge: its judged metric is not comparable, so no case regressed or improved', async () => {
  const { page, log } = await open(browser, server.url);
  const headers = await page.$$eval('[role=columnheader]', (hs) => hs.map((x) => x.textContent.replace(/[▲▼]/g, '').trim()));
  assert.ok(headers.includes('final_response_match_v2'), headers.join(','));
  await page.click('#rescore summary');
  await page.click('#rescore-run');
  await page.waitForFunction(() => /^Rescored 4 case results/.test(document.getElementById('rescore-status').textContent));
  await page.click('#compare-rescored');
  const rows = await tableRows(page, 'Comparison');
  // check_listed_numbers failed its trajectory on both sides: a judge could not have passed it.
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [
    ['greeting', 'not comparable'], ['roll_and_check', 'not comparable'], ['roll_twice_then_check', 'not comparable'], ['check_listed_numbers', 'same'],
  ]);
  assert.match(await page.locator('.cards').innerText(), /0\s+regressed[\s\S]*0\s+improved[\s\S]*1\s+unchanged[\s\S]*3\s+not comparable/i);
  // Why, where the user looks: the core's reason for the judged metric.
  const why = await page.locator('#incomparable').innerText();
  assert.match(why, /greeting\s+final_response_match_v2 NOT_EVALUATED in the candidate: .*judge/);
  await shot(page, 'compare-not-comparable');
  assert.deepEqual(log.errors, []);
  await page.close();
});

/** Each header cell's [left, width] and each cell's of the first body row, rounded. */
const grid = (page) => page.$$eval('[role=table][aria-label=Comparison] [role=row]', (rows) => rows.slice(0, 2)
  .map((r) => [...r.children].map((c) => { const b = c.getBoundingClientRect(); return [Math.round(b.left), Math.round(b.width)]; })));

test('the comparison\'s columns line up: header and rows on one grid, numbers and their headers right-aligned, with a scrollbar too', async (t) => {
  const [a, b] = writeAll('aligned', { 'a.evalset_result.json': bigResult(80, 1), 'b.evalset_result.json': bigResult(80, 1, { regressEvery: 9 }) });
  const s = await serve([a, b]);
  t.after(() => s.close());
  const { page } = await open(browser, `${s.url}#compare`);
  await tableRows(page, 'Comparison');
  // 80 rows scroll: the body's scrollbar must not shift its columns against the header's.
  assert.ok(await page.$eval('[aria-label=Comparison] .viewport', (v) => v.scrollHeight > v.clientHeight), 'the table scrolls');
  const [head, row] = await grid(page);
  assert.equal(head.length, row.length);
  assert.deepEqual(head, row);
  const align = await page.$$eval('[aria-label=Comparison] [role=columnheader]', (hs) => hs.map((x) => getComputedStyle(x).textAlign));
  assert.deepEqual(align.slice(-2), ['right', 'right'], 'the Δ columns\' headers sit over their numbers');
  await shot(page, 'compare-aligned');
  // The run table too (its tokens and seconds).
  await page.click('#tabs a[data-view=run]');
  await tableRows(page);
  const [rh, rr] = await page.$$eval('[role=table][aria-label=Cases] [role=row]', (rows) => rows.slice(0, 2)
    .map((r) => [...r.children].map((c) => { const x = c.getBoundingClientRect(); return [Math.round(x.left), Math.round(x.width)]; })));
  assert.deepEqual(rh, rr);
  await page.close();
});
