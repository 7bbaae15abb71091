// ADK's own dev UI (the browser bundle of @google/adk-devtools 2.0.0) in Chromium, served by
// `evalcore web examples`: @google/adk-devtools' server runs the chat with the example @google/adk
// agent (its scripted local model, no network), evalcore answers the Eval tab. The test chats,
// adds the session to a new eval set, runs the eval with chosen metrics, reads the results and
// the per-invocation comparison of expected and actual, first passing, then failing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from './fixtures.mjs';
import { launch, shot } from './helpers.mjs';

const APP = 'adk_agent';
const SET = 'dice_rolls';
const CASE = 'roll_case';
let browser, web, evalsDir;

/** `evalcore web examples` on a free port; resolves with the child and the URL it printed first. */
async function startWeb() {
  const child = spawn(process.execPath, [CLI, 'web', join(ROOT, 'examples'), '--port', '0', '--evals_dir', evalsDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => { err += d; });
  child.stdout.setEncoding('utf8');
  const first = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`evalcore web printed no URL in 60 s:\n${out}\n${err}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]);
      }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`evalcore web exited with ${code}:\n${out}\n${err}`)); });
  });
  return { child, url: first, stderr: () => err };
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'examples', 'adk_agent', 'node_modules', '@google', 'adk-devtools', 'dist', 'browser', 'index.html')),
    'examples/adk_agent needs @google/adk-devtools installed: run scripts/setup.sh');
  evalsDir = tempDir('devui');
  web = await startWeb();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  web?.child.kill('SIGINT');
  if (evalsDir) rmSync(evalsDir, { recursive: true, force: true });
});

/** Opens the dev UI on the app; only the local server is reachable (web fonts are refused). */
async function openUi() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route((u) => !u.href.startsWith(web.url), (r) => r.abort());
  await page.goto(`${web.url}/dev-ui/?app=${APP}`);
  return { page, errors };
}

/** Run All in the open eval set, the metrics dialog with `extra` ticked too, Start; the run's answer. */
async function runAll(page, extra = []) {
  await page.getByRole('button', { name: 'Run All' }).click();
  const dialog = page.locator('mat-dialog-container');
  await dialog.getByText('EVALUATION METRICS').waitFor();
  for (const label of extra) await dialog.locator('mat-checkbox').filter({ hasText: label }).locator('input').check();
  const answered = page.waitForResponse((r) => r.url().endsWith(`/dev/apps/${APP}/eval_sets/${SET}/run_eval`));
  await dialog.getByRole('button', { name: 'Start' }).click();
  const res = await answered;
  assert.equal(res.status(), 200);
  return { request: JSON.parse(res.request().postData()), results: await res.json() };
}

/** The history's newest run: opens the case's result and the Expected/Actual comparison. */
async function openComparison(page) {
  await page.locator('.status-card__history-case').getByText(CASE).click();
  await page.getByText('Compare', { exact: true }).waitFor();
  await page.locator('app-content-bubble').filter({ hasText: 'I rolled a 4 for you.' }).first().waitFor();
  // The Compare toggle keeps its state from one result to the next.
  if (!(await page.getByText('Expected', { exact: true }).isVisible())) await page.getByText('Compare', { exact: true }).click();
  await page.getByText('Expected', { exact: true }).waitFor();
  return page.locator('app-content-bubble').allTextContents();
}

test('the Eval tab of ADK\'s dev UI runs an eval of a JS agent end to end', async () => {
  assert.match(web.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'the URL is the first line');
  const { page, errors } = await openUi();

  // Chat with the agent.
  await page.getByPlaceholder('Type a message...').fill('roll a 6-sided die');
  await page.keyboard.press('Enter');
  await page.getByText('I rolled a 4 for you.', { exact: true }).waitFor();

  // A new eval set, and the session added to it.
  await page.getByText('Evals', { exact: true }).click();
  await page.locator('app-eval-tab').getByRole('button', { name: 'New', exact: true }).click();
  await page.locator('mat-dialog-container input').fill(SET);
  await page.locator('mat-dialog-container').getByRole('button', { name: 'Create' }).click();
  await page.locator('app-eval-tab').getByText(SET, { exact: true }).click();
  await page.getByRole('button', { name: 'From Current Session' }).click();
  await page.locator('mat-dialog-container input').fill(CASE);
  await page.locator('mat-dialog-container').getByRole('button', { name: 'Create' }).click();
  await page.locator('app-eval-tab .eval-case-row').getByText(CASE).waitFor();
  await shot(page, 'devui-eval-set');

  // ADK's files under the evals folder: the set with the chatted turn as the core converted it.
  const file = JSON.parse(readFileSync(join(evalsDir, APP, `${SET}.evalset.json`), 'utf8'));
  assert.equal(file.eval_set_id, SET);
  const [inv] = file.eval_cases[0].conversation;
  assert.equal(file.eval_cases[0].eval_id, CASE);
  assert.deepEqual(inv.user_content.parts, [{ text: 'roll a 6-sided die' }]);
  assert.deepEqual(inv.final_response.parts, [{ text: 'I rolled a 4 for you.' }]);
  assert.deepEqual(inv.intermediate_data.invocation_events[0].content.parts[0].function_call.args, { sides: 6 });

  // Run with the default metrics and one more chosen in the dialog.
  const first = await runAll(page, ['Trajectory Recall']);
  assert.deepEqual(first.request.evalIds, [CASE]);
  assert.deepEqual(first.request.evalMetrics.map((m) => m.metricName).sort(),
    ['response_match_score', 'tool_trajectory_avg_score', 'trajectory_recall'].sort());
  assert.equal(first.results.length, 1);
  assert.equal(first.results[0].finalEvalStatus, 1);
  const scored = first.results[0].overallEvalMetricResults.filter((m) => m.evalStatus !== 4);
  assert.deepEqual(scored.map((m) => [m.metricName, m.score, m.evalStatus]).sort(),
    [['response_match_score', 1, 1], ['tool_trajectory_avg_score', 1, 1], ['trajectory_recall', 1, 1]].sort());
  await page.getByText('1 PASS').waitFor();
  const passing = await openComparison(page);
  assert.equal(passing.filter((t) => t.trim() === 'I rolled a 4 for you.').length, 2, 'expected and actual answer alike');
  await shot(page, 'devui-compare-pass');

  // The expected answer changed through the dev server's own route (as an editor would): the
  // same run now fails response_match_score, and the comparison shows both answers.
  const caseUrl = `${web.url}/dev/apps/${APP}/eval_sets/${SET}/evals/${CASE}`;
  const evalCase = await (await fetch(caseUrl)).json();
  evalCase.conversation[0].finalResponse.parts[0].text = 'You rolled a six, congratulations.';
  const put = await fetch(caseUrl, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(evalCase) });
  assert.equal(put.status, 200);
  // Back to the set's cases: its breadcrumb, then the rail's Eval Cases button.
  await page.locator('app-eval-tab .breadcrumb-item, app-eval-tab a, app-eval-tab span').filter({ hasText: new RegExp(`^${SET}$`) }).first().click();
  await page.locator('app-eval-tab button[mattooltip="Eval Cases"]').click();
  await page.getByRole('button', { name: 'Run All' }).waitFor();
  const second = await runAll(page);
  assert.equal(second.results[0].finalEvalStatus, 2);
  const rouge = second.results[0].overallEvalMetricResults.find((m) => m.metricName === 'response_match_score');
  assert.ok(rouge.score > 0.5 && rouge.score < 0.6, `ROUGE-1 F of the two answers is 6/11, found ${rouge.score}`);
  assert.equal(rouge.evalStatus, 2);
  await page.getByText('0 PASS').waitFor();
  const failing = await openComparison(page);
  assert.ok(failing.some((t) => t.includes('You rolled a six, congratulations.')), 'the expected answer is shown');
  assert.ok(failing.some((t) => t.includes('I rolled a 4 for you.')), 'the actual answer is shown');
  assert.match(await page.locator('body').innerText(), /Response Match\s*0\.55\s*\/\s*0\.70/);
  await shot(page, 'devui-compare-fail');

  // Two results in ADK's history layout, listed by the route the UI reads.
  const ids = await (await fetch(`${web.url}/dev/apps/${APP}/eval_results`)).json();
  assert.equal(ids.length, 2);
  for (const id of ids) assert.ok(existsSync(join(evalsDir, APP, '.adk', 'eval_history', `${id}.evalset_result.json`)));
  assert.deepEqual(errors, [], 'no page errors');
  await page.close();
});
