// Editing an eval set in the page and exporting it: the download is ADK JSON that
// validateEvalSet accepts; a broken edit is refused with the core's code and path; a run's
// actual invocations promoted to a case's expected ones round-trip through loadEvalSet.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { helloRun } from './fixtures.mjs';
import { launch, serve, open, shot } from './helpers.mjs';
import { loadEvalSet, validateEvalSet } from '../../pkg/index.js';

let browser, server, hello;
before(async () => {
  hello = helloRun();
  browser = await launch();
  server = await serve([hello.results[0], hello.evalSet]);
});
after(async () => { await browser?.close(); await server?.close(); });

async function exported(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-evalset')]);
  assert.equal(download.suggestedFilename(), 'hello_world.evalset.json');
  return readFileSync(await download.path(), 'utf8');
}

test('edit texts, delete a case and a turn, export: validateEvalSet accepts the download', async () => {
  const { page, log } = await open(browser, `${server.url}#files`);
  await page.click('a.edit-link');
  await page.waitForSelector('.editor');
  await page.fill('textarea[aria-label="roll_and_check turn 1 expected response"]', 'I rolled a 5, which is prime.');
  await page.fill('textarea[aria-label="roll_and_check turn 1 user"]', 'Roll a d6 & check <b>primality</b>.');
  await page.click('button[aria-label="delete case greeting"]');
  await page.click('button[aria-label="delete turn 2 of roll_twice_then_check"]');
  await shot(page, 'edit-eval-set');
  const text = await exported(page);
  assert.deepEqual(validateEvalSet(text), { ok: true, errors: [] });
  const set = loadEvalSet(text);
  assert.deepEqual(set.eval_cases.map((c) => c.eval_id), ['roll_and_check', 'roll_twice_then_check', 'check_listed_numbers']);
  const rc = set.eval_cases[0].conversation[0];
  assert.equal(rc.final_response.parts[0].text, 'I rolled a 5, which is prime.');
  assert.equal(rc.user_content.parts[0].text, 'Roll a d6 & check <b>primality</b>.');
  const ids = JSON.parse(readFileSync(hello.evalSet, 'utf8')).eval_cases[2].conversation.map((c) => c.invocation_id);
  assert.deepEqual(set.eval_cases[1].conversation.map((c) => c.invocation_id), [ids[0], ids[2]]);
  assert.match(await page.locator('#export-report').innerText(), /validateEvalSet accepts it/);
  assert.deepEqual(log.errors, []);
  await page.close();
});

test('a broken edit is not exported: the problems are listed with code and path', async () => {
  const { page } = await open(browser, `${server.url}#files`);
  await page.click('a.edit-link');
  await page.fill('textarea[aria-label="check_listed_numbers turn 1 intermediate data"]', '{"tool_uses": 5}');
  let downloads = 0;
  page.on('download', () => { downloads++; });
  await page.click('#export-evalset');
  await page.waitForSelector('#export-report .err');
  const text = await page.locator('#export-report').innerText();
  assert.match(text, /Not exported: validateEvalSet found \d+ problems?/);
  assert.match(text, /schema at \$\.eval_cases\[3\]\.conversation\[0\]\.intermediate_data/);
  assert.equal(downloads, 0);
  await page.close();
});

test('promote a run\'s actual invocations to the expected ones; the export keeps them', async () => {
  const { page } = await open(browser, `${server.url}#case/check_listed_numbers`);
  await page.waitForSelector('#promote');
  await page.click('#promote');
  await page.waitForSelector('.editor');
  const shown = await page.inputValue('textarea[aria-label="check_listed_numbers turn 1 expected response"]');
  const result = JSON.parse(readFileSync(hello.results[0], 'utf8'));
  const actual = result.eval_case_results.find((c) => c.eval_id === 'check_listed_numbers').eval_metric_result_per_invocation[0].actual_invocation;
  assert.equal(shown, actual.final_response.parts.map((p) => p.text).join('\n'));
  const set = loadEvalSet(await exported(page));
  const inv = set.eval_cases.find((c) => c.eval_id === 'check_listed_numbers').conversation[0];
  assert.equal(inv.final_response.parts[0].text, actual.final_response.parts[0].text);
  assert.ok(Array.isArray(inv.intermediate_data.invocation_events) && inv.intermediate_data.invocation_events.length > 0);
  await page.close();
});
