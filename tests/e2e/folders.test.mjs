// A baseline folder against a candidate folder (Chromium): `evalcore view base/ cand/` and two
// folders opened in the page keep each file's folder in its name, Compare opens on the baseline
// folder's newest run against the candidate folder's newest (not the two newest overall, which
// are both the candidate's here), and each side is picked by folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, helloRun, tempDir } from './fixtures.mjs';
import { launch, open, serve, shot, tableRows } from './helpers.mjs';

let browser, dir;
// Two runs a folder; the candidate's are the newer, and its newest has a regression.
const RUNS = [
  { folder: 'base', file: 'run_a.evalset_result.json', ts: 1_800_000_100 },
  { folder: 'base', file: 'run_b.evalset_result.json', ts: 1_800_000_200 },
  { folder: 'cand', file: 'run_c.evalset_result.json', ts: 1_800_000_300 },
  { folder: 'cand', file: 'run_d.evalset_result.json', ts: 1_800_000_400, regress: 'roll_and_check' },
];

before(async () => {
  const hello = helloRun();
  const result = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  dir = tempDir('folders');
  for (const r of RUNS) {
    const run = structuredClone(result);
    run.creation_timestamp = r.ts;
    run.eval_set_result_id = `hello_world_${r.ts}`;
    run.eval_set_result_name = run.eval_set_result_id;
    if (r.regress) {
      const c = run.eval_case_results.find((x) => x.eval_id === r.regress);
      const m = c.overall_eval_metric_results.find((x) => x.metric_name === 'response_match_score');
      m.score = 0.1; m.eval_status = 2; c.final_eval_status = 2;
    }
    mkdirSync(join(dir, r.folder), { recursive: true });
    writeFileSync(join(dir, r.folder, r.file), JSON.stringify(run));
  }
  browser = await launch();
});
after(async () => { await browser?.close(); });

const selectedText = (page, id) => page.$eval(`#${id}`, (sel) => sel.options[sel.selectedIndex].textContent);

/** Compare's state once drawn: the two runs picked, the folders picked, the comparison's rows. */
async function compared(page) {
  await page.waitForSelector('[role=table][aria-label=Comparison]');
  return {
    base: await selectedText(page, 'base-pick'), cand: await selectedText(page, 'cand-pick'),
    baseFolder: await selectedText(page, 'base-folder'), candFolder: await selectedText(page, 'cand-folder'),
    rows: (await tableRows(page, 'Comparison')).map((r) => [r[0], r[1]]),
  };
}

async function checkCompare(page) {
  await page.click('#tabs a[data-view=compare]');
  const c = await compared(page);
  assert.match(c.base, /^base\/run_b\.evalset_result\.json — /, 'the baseline folder\'s newest');
  assert.match(c.cand, /^cand\/run_d\.evalset_result\.json — /, 'the candidate folder\'s newest');
  assert.match(c.baseFolder, /^base\/ \(2 results\)$/);
  assert.match(c.candFolder, /^cand\/ \(2 results\)$/);
  assert.deepEqual(c.rows[0], ['roll_and_check', 'regressed']);
  // Each side's runs are its folder's (two files, and the two merged).
  const options = await page.$$eval('#base-pick option', (os) => os.map((o) => o.textContent));
  assert.equal(options.length, 3, options.join('\n'));
  assert.ok(options.slice(0, 2).every((o) => o.includes('base/run_')), options.join('\n'));
  assert.match(options[2], /^all 2 runs of hello_world in base\//);
  // The baseline picked from the candidate folder: its newest there, so the same run on both sides.
  await page.selectOption('#base-folder', { label: 'cand/ (2 results)' });
  const same = await compared(page);
  assert.match(same.base, /cand\/run_d\.evalset_result\.json/);
  assert.ok(same.rows.every((r) => r[1] === 'same'), JSON.stringify(same.rows));
  // Back to the baseline folder, and its older run picked.
  await page.selectOption('#base-folder', { label: 'base/ (2 results)' });
  await page.selectOption('#base-pick', { label: (await page.$$eval('#base-pick option', (os) => os.map((o) => o.textContent))).find((o) => o.includes('run_a')) });
  assert.match((await compared(page)).base, /base\/run_a\.evalset_result\.json/);
  // "any folder" lists every run again.
  await page.selectOption('#cand-folder', { label: 'any folder' });
  assert.equal(await page.locator('#cand-pick option').count(), 6, 'four files and two merged runs');
}

test('evalcore view base/ cand/: names keep the folder given; Compare opens on each folder\'s newest', async (t) => {
  const child = spawn(process.execPath, [CLI, 'view', join(dir, 'base'), join(dir, 'cand'), '--no-open', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill('SIGKILL'));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) resolve(out.split('\n')[0]); });
    child.once('exit', (code) => reject(new Error(`evalcore view exited with ${code}`)));
  });
  const { page, log } = await open(browser, url);
  await page.click('#tabs a[data-view=files]');
  await page.locator('table.files tbody tr').nth(3).waitFor();
  const names = await page.$$eval('table.files tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names, RUNS.map((r) => `${r.folder}/${r.file}`));
  await checkCompare(page);
  await shot(page, 'compare-folders');
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('two folders opened in the page: the same names and the same comparison', async (t) => {
  const empty = await serve([]);
  t.after(() => empty.close());
  const { page, log } = await open(browser, empty.url);
  await page.setInputFiles('#open-folder', join(dir, 'base'));
  await page.waitForFunction(() => /Loaded 2 files/.test(document.getElementById('notice').textContent));
  // One folder: Compare is the newest against the one before it, without folder pickers.
  await page.click('#tabs a[data-view=compare]');
  await page.waitForSelector('[role=table][aria-label=Comparison]');
  assert.equal(await page.locator('#base-folder').count(), 0);
  await page.setInputFiles('#open-folder', join(dir, 'cand'));
  // Still on Compare: a second folder opened, each side picks from its own.
  await page.waitForSelector('#base-folder');
  await page.click('#tabs a[data-view=files]');
  await page.locator('table.files tbody tr').nth(3).waitFor();
  const names = await page.$$eval('table.files tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names, RUNS.map((r) => `${r.folder}/${r.file}`));
  await checkCompare(page);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('the Run view and Trend keep one folder\'s runs apart from the other\'s', async () => {
  const s = await serve([join(dir, 'base', RUNS[0].file), join(dir, 'base', RUNS[1].file), join(dir, 'cand', RUNS[2].file), join(dir, 'cand', RUNS[3].file)]);
  try {
    const { page } = await open(browser, s.url);
    // The newest run overall opens; the merged runs are per folder.
    assert.match(await selectedText(page, 'run-pick'), /^cand\/run_d\.evalset_result\.json — /);
    const merged = await page.$$eval('#run-pick option', (os) => os.map((o) => o.textContent).filter((t) => t.startsWith('all ')));
    assert.deepEqual(merged.map((m) => m.replace(/ \(.*$/, '')), ['all 2 runs of hello_world in base/', 'all 2 runs of hello_world in cand/']);
    await page.selectOption('#run-pick', { label: merged[0] });
    assert.equal((await tableRows(page)).length, 4);
    await page.click('#tabs a[data-view=trend]');
    await page.waitForSelector('.trend-set h3');
    assert.deepEqual(await page.locator('.trend-set h3').allInnerTexts(), ['base/hello_world — 2 runs', 'cand/hello_world — 2 runs']);
    await page.close();
  } finally {
    await s.close();
  }
});
