// Rescoring in the page: the run's own criteria give the same statuses back; a new threshold or a
// metric left out changes them at once, and the original vs rescored comparison shows which.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { helloRun } from './fixtures.mjs';
import { launch, serve, open, shot, tableRows, startJudge } from './helpers.mjs';

let browser, server, hello;
before(async () => {
  hello = helloRun();
  browser = await launch();
  server = await serve([hello.results[0], hello.config]);
});
after(async () => { await browser?.close(); await server?.close(); });

const statusText = (page) => page.locator('#rescore-status').innerText();

test('rescore: same criteria, same statuses; threshold 0.8 without the trajectory metric flips two cases', async () => {
  const { page, log } = await open(browser, server.url);
  await page.click('#rescore summary');
  await page.locator('#rescore tbody tr td:nth-child(2)').first().waitFor();
  const metrics = await page.locator('#rescore tbody tr td:nth-child(2)').allInnerTexts();
  assert.deepEqual(metrics, ['tool_trajectory_avg_score', 'response_match_score']);
  assert.equal(await page.inputValue('input.threshold[data-metric=response_match_score]'), '0.5');
  await page.click('#rescore-run');
  await page.waitForFunction(() => /^Rescored 4 case results/.test(document.getElementById('rescore-status').textContent));
  assert.match(await statusText(page), /: 0 final statuses changed\.$/);

  await page.fill('input.threshold[data-metric=response_match_score]', '0.8');
  await page.uncheck('input[aria-label="use tool_trajectory_avg_score"]');
  await page.waitForFunction(() => /2 final statuses changed/.test(document.getElementById('rescore-status').textContent));
  await shot(page, 'rescore-panel');
  await page.click('#compare-rescored');
  await page.waitForSelector('[role=table][aria-label=Comparison]');
  const rows = await tableRows(page, 'Comparison');
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [
    ['greeting', 'regressed'], ['check_listed_numbers', 'improved'], ['roll_and_check', 'same'], ['roll_twice_then_check', 'same'],
  ]);
  assert.match(rows[0][2], /PASSED\s*→\s*FAILED/);
  await shot(page, 'rescore-compare');
  // The rescored run itself: the trajectory metric is gone, the scores are the core's.
  await page.click('#tabs a[data-view=run]');
  // The tab changes the hash; the run view renders on the hashchange event that follows.
  await page.waitForSelector('#run-pick');
  const choice = await page.$eval('#run-pick', (sel) => [...sel.options].find((o) => o.textContent.startsWith('rescored:')).value);
  await page.selectOption('#run-pick', choice);
  const headers = await page.$$eval('[role=columnheader]', (hs) => hs.map((x) => x.textContent.replace(/[▲▼]/g, '').trim()));
  assert.deepEqual(headers, ['eval id', 'status', 'response_match_score', 'tokens', 'seconds']);
  assert.deepEqual((await tableRows(page)).map((r) => [r[0], r[1], r[2]]).sort(), [
    ['check_listed_numbers', 'PASSED', '0.833'], ['greeting', 'FAILED', '0.756'], ['roll_and_check', 'PASSED', '0.857'], ['roll_twice_then_check', 'PASSED', '0.941'],
  ]);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('rescore: a misspelt metric is a warning with code and path; a threshold of 7 fails every case', async () => {
  const { page } = await open(browser, server.url);
  await page.click('#rescore summary');
  // Start from the loaded test_config.json (the same criteria as the run).
  await page.selectOption('#rescore select[aria-label="start from"]', '0');
  await page.waitForFunction(() => /Rescored 4 case results.*: 0 final statuses changed/.test(document.getElementById('rescore-status').textContent));
  await page.fill('#rescore input[aria-label="metric to add"]', 'response_match_scor');
  await page.click('#rescore button:has-text("Add metric")');
  await page.waitForSelector('#rescore .problems .warn');
  assert.match(await page.locator('#rescore .problems').innerText(), /schema at \$\.criteria\.response_match_scor: .*response_match_score/);
  await page.fill('input.threshold[data-metric=response_match_score]', '7');
  await page.waitForFunction(() => /: 3 final statuses changed/.test(document.getElementById('rescore-status').textContent));
  await page.click('#show-rescored');
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r[1]), ['FAILED', 'FAILED', 'FAILED', 'FAILED']);
  const headers = await page.$$eval('[role=columnheader]', (hs) => hs.map((x) => x.textContent.replace(/[▲▼]/g, '').trim()));
  assert.ok(headers.includes('response_match_scor'));
  assert.ok(rows.every((r) => r[headers.indexOf('response_match_scor')] === 'not evaluated'), JSON.stringify(rows));
  await page.close();
});

test('rescore with a judge the user types in: judged metrics are judged through it; the key goes only there', async (t) => {
  const judge = await startJudge();
  t.after(() => judge.close());
  const { seen } = judge;
  const judgeUrl = judge.url;

  const { page, log } = await open(browser, server.url);
  await page.click('#rescore summary');
  await page.fill('#rescore input[aria-label="metric to add"]', 'final_response_match_v2');
  await page.click('#rescore button:has-text("Add metric")');
  // Without a judge the core says the metric needs one.
  await page.waitForFunction(() => /^Rescored 4 case results/.test(document.getElementById('rescore-status').textContent));
  await page.selectOption('#judge-provider', 'openai');
  await page.fill('#judge-model', 'judge-model-1');
  await page.fill('#judge-base', judgeUrl);
  await page.fill('#judge-key', 'sk-test-123');
  await page.fill('input.threshold[data-metric=response_match_score]', '0.5');
  await page.waitForFunction(() => /press "Rescore now"/.test(document.getElementById('rescore-status').textContent));
  assert.equal(seen.length, 0, 'no judge call before the user asks');
  const planned = Number(/(\d+) judge calls? \(about [\d,]+ tokens\) for 4 case results/.exec(await statusText(page))?.[1]);
  await page.click('#rescore-run');
  await page.waitForFunction(() => /^Rescored 4 case results/.test(document.getElementById('rescore-status').textContent), null, { timeout: 60_000 });
  assert.ok(seen.length >= 4, `${seen.length} judge calls`);
  assert.equal(seen.length, planned, 'the calls announced are the calls sent');
  assert.ok(seen.every((r) => r.auth === 'Bearer sk-test-123' && r.model === 'judge-model-1' && r.path === '/v1/chat/completions'), JSON.stringify(seen[0]));
  await page.click('#show-rescored');
  const headers = await page.$$eval('[role=columnheader]', (hs) => hs.map((x) => x.textContent.replace(/[▲▼]/g, '').trim()));
  const col = headers.indexOf('final_response_match_v2');
  assert.ok(col > 0, headers.join(','));
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r[col]), ['1', '1', '1', '1']);
  // The key is in no storage, cookie or URL, and nothing but the page's origin and the judge was asked.
  const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie, location.href].join('|'));
  assert.doesNotMatch(stored, /sk-test/);
  assert.ok(log.requests.every((u) => u.startsWith(server.origin) || u.startsWith(judgeUrl)), log.requests.join('\n'));
  await shot(page, 'rescore-judged');
  await page.close();
});
