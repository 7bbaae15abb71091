// The viewer's statistics in Chromium: the Compare view shows compareRuns's verdict, intervals and
// p-values (the same numbers the package gives in Node); the Trend view shows a folder of runs
// per metric with intervals (runTrend's); the Labels view labels judged verdicts, exports a labels
// file that opens again, and shows calibrate's numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, helloRun, tempDir } from './fixtures.mjs';
import { launch, serve, open, shot } from './helpers.mjs';
import { calibrate, compareRuns, runTrend } from '../../pkg/lib/report/reports_node.js';

const jsonl = (name) => readFileSync(join(ROOT, 'tests', 'data', 'compare', name), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const fmt4 = (x) => String(Number(x.toFixed(4)));

let browser;
const servers = [];
const dir = tempDir('stats');
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); for (const s of servers) await s.close(); });

async function serving(files) {
  const s = await serve(files);
  servers.push(s);
  return s;
}

/** A result written as a file the viewer opens (1.x results are the JSON string they are). */
function write(name, result) {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(result));
  return path;
}

test('Compare: the verdict, each metric\'s interval and p-values are compareRuns\'s', async () => {
  const s = jsonl('scenarios.jsonl').find((x) => x.baseline.length === 1 && x.candidate.length === 1 && x.expected.metrics.some((m) => m.significant));
  const base = write('base.evalset_result.json', s.baseline[0]);
  const cand = write('cand.evalset_result.json', s.candidate[0]);
  const want = compareRuns(s.baseline[0], s.candidate[0]);
  const server = await serving([base, cand]);
  const { page, log } = await open(browser, server.url);
  await page.click('#tabs a[data-view=compare]');
  await page.waitForSelector('#compare-stats');
  assert.equal(await page.getAttribute('#compare-stats', 'data-verdict'), want.verdict);
  const rows = await page.$$eval('#metric-stats tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  assert.deepEqual(rows.map((r) => r[0]), want.metrics.map((m) => m.metric_name));
  want.metrics.forEach((m, i) => {
    assert.equal(rows[i][1], String(m.n));
    assert.equal(rows[i][4], `${m.mean_delta > 0 ? '+' : ''}${fmt4(m.mean_delta)}`);
    assert.equal(rows[i][5], `[${m.ci95[0] > 0 ? '+' : ''}${fmt4(m.ci95[0])}, ${m.ci95[1] > 0 ? '+' : ''}${fmt4(m.ci95[1])}]`);
    assert.equal(rows[i][9], m.significant ? (m.mean_delta < 0 ? 'worse' : 'better') : '');
  });
  assert.match(await page.innerText('#flips'), new RegExp(`${want.pass_fail.b} passed only in the baseline, ${want.pass_fail.c} only in the candidate`));
  await shot(page, 'compare-stats');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('Trend: a folder of runs as each metric over time with its interval', async () => {
  const hello = helloRun();
  const server = await serving([...hello.results]);
  const want = runTrend(hello.results.map((p) => readFileSync(p)));
  const { page, log } = await open(browser, server.url);
  await page.click('#tabs a[data-view=trend]');
  await page.waitForSelector('#trend-table');
  const charts = await page.$$eval('figure.trend', (fs) => fs.map((f) => f.dataset.metric));
  assert.deepEqual(charts.slice(1), want.metrics.map((m) => m.metric_name));
  const cells = await page.$$eval('#trend-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
  assert.equal(cells.length, want.runs.length);
  const p = want.metrics[0].points[0];
  assert.ok(cells[0][3].startsWith(fmt4(p.mean)), `${cells[0][3]} vs ${p.mean}`);
  await shot(page, 'trend');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('Labels: agree, disagree and own verdicts, exported and opened again, with the calibration', async () => {
  const s = jsonl('calibration.jsonl')[0];
  const result = write('judged.evalset_result.json', s.results[0]);
  const server = await serving([result]);
  const { page, log } = await open(browser, server.url);
  await page.click('#tabs a[data-view=labels]');
  await page.waitForSelector('.label-item');
  const items = page.locator('.label-item');
  await items.nth(0).locator('button[data-label=agree]').click();
  await page.waitForSelector('#calibration table');
  await page.locator('.label-item').nth(1).locator('button[data-label=disagree]').click();
  await page.locator('.label-item').nth(2).locator('input.note').fill('the answer names the wrong city');
  await page.locator('.label-item').nth(2).locator('button[data-label=fail]').click();
  assert.match(await page.innerText('#label-count'), /^3 of \d+ judged verdicts labelled$/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-labels')]);
  const path = join(dir, download.suggestedFilename());
  await download.saveAs(path);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(file.kind, 'evalcore.labels');
  assert.equal(file.version, 1);
  assert.deepEqual(file.labels.map((l) => l.label), ['agree', 'disagree', 'fail']);
  assert.equal(file.labels[2].note, 'the answer names the wrong city');
  for (const l of file.labels) for (const k of ['eval_set_id', 'eval_id', 'invocation_index', 'metric_name', 'judge_verdict']) assert.ok(k in l, `${k} in ${JSON.stringify(l)}`);
  // The calibration shown is calibrate's on the same labels.
  const want = calibrate(file, s.results);
  const kappas = await page.$$eval('#calibration tbody tr td.kappa', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(kappas, want.metrics.map((g) => (g.kappa === null ? 'undefined' : String(Number(g.kappa.toFixed(3))))));
  await shot(page, 'labels');
  assert.deepEqual(log.errors, []);
  await page.close();

  // Opened again beside the result: the same three labels, the same calibration.
  const again = await serving([result, path]);
  const second = await open(browser, again.url);
  await second.page.click('#tabs a[data-view=labels]');
  await second.page.waitForSelector('#calibration table');
  assert.match(await second.page.innerText('#label-count'), /^3 of \d+ judged verdicts labelled$/);
  assert.deepEqual(await second.page.$$eval('#calibration tbody tr td.kappa', (tds) => tds.map((td) => td.textContent)), kappas);
  assert.deepEqual(second.log.errors, []);
  await second.page.close();
});
