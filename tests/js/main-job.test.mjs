// The README's main job: the CLI on examples/hello_world, plain and with judged metrics replayed
// from the committed cassette. A stale cassette (judge prompts changed without re-recording via
// examples/hello_world/record_cassette.mjs) shows up here as cassette_miss.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ex = join(root, 'examples/hello_world');
const cli = (args) => spawnSync(process.execPath, [join(root, 'pkg/bin/evalcore.js'), ...args], { encoding: 'utf8', timeout: 120_000 });

test('main job: evalcore eval on hello_world prints ADK summary, one case fails on purpose', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalcore-main-'));
  try {
    const r = cli(['eval', join(ex, 'agent.mjs'), join(ex, 'hello_world.evalset.json'), '--results_dir', dir]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /Eval Run Summary\nhello_world:\n  Tests passed: 3\n  Tests failed: 1\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('main job: judged metrics replay from the committed cassette with no network and no key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalcore-main-'));
  try {
    const r = cli(['eval', join(ex, 'agent.mjs'), join(ex, 'hello_world.evalset.json'),
      '--config_file_path', join(ex, 'judged_config.json'), '--judge', 'openai:standin-judge',
      '--judge_base_url', 'http://127.0.0.1:9', // nothing listens: any call that is not replayed fails
      '--judge_cassette', join(ex, 'judge_cassette.json'), '--judge_mode', 'replay', '--results_dir', dir, '--format', 'json']);
    assert.equal(r.status, 1, r.stderr);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    const cases = report.eval_set_results[0].eval_case_results;
    assert.equal(cases.length, 4);
    for (const c of cases) {
      for (const m of c.overall_eval_metric_results.filter((x) => ['final_response_match_v2', 'hallucinations_v1'].includes(x.metric_name))) {
        assert.notEqual(m.eval_status, 'NOT_EVALUATED', `${c.eval_id} ${m.metric_name}: ${JSON.stringify(m.details)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a replay whose app_details differ from the recording: hallucinations_v1 is cassette_miss naming the missing call (issue 10)', async () => {
  // The segmenter sees only the response, so its answers are still on the cassette; the
  // validator's context holds the agent's instructions, so its calls are not. Each invocation
  // must say which call was missing, not that an answer was unreadable.
  const { evaluate } = await import('../../pkg/index.js');
  const read = (name) => JSON.parse(readFileSync(join(ex, name), 'utf8'));
  const recorded = read('recorded_turns.json');
  const appDetails = read('agent.json');
  for (const a of Object.values(appDetails.agent_details)) a.instructions += ' Be brief.';
  const agent = async (turn) => {
    const inv = recorded[turn.evalId][turn.turnIndex];
    const events = inv.intermediate_data.invocation_events.map((e) => (e.content === null ? { ...e, content: inv.final_response } : e));
    return { events, appDetails };
  };
  for (const intermediate of [false, true]) {
    const result = await evaluate({
      evalSet: readFileSync(join(ex, 'hello_world.evalset.json')), agent,
      config: { criteria: { hallucinations_v1: { threshold: 0.8, evaluate_intermediate_nl_responses: intermediate } } },
      judge: { provider: 'openai', model: 'standin-judge', baseUrl: 'http://127.0.0.1:9', cassette: { mode: 'replay', entries: read('judge_cassette.json').entries } },
    });
    assert.ok(result.judge_stats.cassette_hits > 0, 'the segmenter calls were replayed');
    for (const c of result.eval_case_results) {
      const m = c.overall_eval_metric_results.find((x) => x.metric_name === 'hallucinations_v1');
      const cells = [m, ...c.eval_metric_result_per_invocation.map((p) => p.eval_metric_results.find((x) => x.metric_name === 'hallucinations_v1'))];
      for (const cell of cells) {
        assert.equal(cell.eval_status, 'NOT_EVALUATED', `${c.eval_id}`);
        assert.equal(cell.details.reason, 'cassette_miss', `${c.eval_id}: ${JSON.stringify(cell.details)}`);
        assert.match(cell.details.error, /the cassette has no answer for hallucinations_v1 invocation \d+ sample \d+ \(validator\)/);
      }
    }
  }
});
