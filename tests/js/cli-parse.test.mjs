// The CLI's parsing: ADK's selection syntax with ADK's bugs fixed (SPEC §5.3, §7.19), flags,
// config discovery (§5.2), and ADK's `Using evaluation criteria:` line (checked against what
// google-adk 2.13 printed for the same configs).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadEvalConfig } from '../../pkg/index.js';
import { parseArgs, UsageError } from '../../pkg/lib/cli/args.js';
import { criteriaLine, pyRepr } from '../../pkg/lib/cli/config.js';
import { resolveConfigPath } from '../../pkg/lib/node/config.js';
import { FLAGS, judgeFromFlags } from '../../pkg/lib/cli/eval.js';
import { idFromFileName } from '../../pkg/lib/node/evalsets.js';
import { createProgress, progressLine } from '../../pkg/lib/cli/progress.js';
import { parseSelectors } from '../../pkg/lib/cli/selectors.js';

const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-parse-'));
after(() => rmSync(work, { recursive: true, force: true }));
const entries = (m) => [...m.entries()];

describe('selectors: <file | id>[:id,id]', () => {
  test('no list runs everything; a list selects; empty items are dropped', () => {
    assert.deepEqual(entries(parseSelectors(['a.json'])), [['a.json', []]]);
    assert.deepEqual(entries(parseSelectors(['a.json:e1,e2'])), [['a.json', ['e1', 'e2']]]);
    assert.deepEqual(entries(parseSelectors(['a.json:,e1,,'])), [['a.json', ['e1']]]);
    assert.deepEqual(entries(parseSelectors(['a.json:'])), [['a.json', []]]);
  });

  test('ids are trimmed (ADK keeps " b" and never matches it)', () => {
    assert.deepEqual(entries(parseSelectors(['a.json:a, b ,  c'])), [['a.json', ['a', 'b', 'c']]]);
    assert.deepEqual(entries(parseSelectors(['a.json: , '])), [['a.json', []]]);
  });

  test('text after a second ":" is dropped; a Windows drive prefix is not a separator', () => {
    assert.deepEqual(entries(parseSelectors(['a.json:e1:junk,e2'])), [['a.json', ['e1']]]);
    assert.deepEqual(entries(parseSelectors(['C:\\evals\\a.json:e1'])), [['C:\\evals\\a.json', ['e1']]]);
    assert.deepEqual(entries(parseSelectors(['C:/evals/a.json'])), [['C:/evals/a.json', []]]);
    assert.deepEqual(entries(parseSelectors(['C:e1'])), [['C', ['e1']]], 'no slash after the colon: an id list');
  });

  test('repeating a set merges its lists: a bare mention plus a filtered one runs only the filtered ids', () => {
    assert.deepEqual(entries(parseSelectors(['x.json', 'x.json:e1'])), [['x.json', ['e1']]]);
    assert.deepEqual(entries(parseSelectors(['x.json:e1', 'y.json', 'x.json:e2,e1'])), [['x.json', ['e1', 'e2']], ['y.json', []]]);
  });
});

describe('flags', () => {
  test('--name value, --name=value, dashed spelling, booleans', () => {
    const { positionals, options } = parseArgs(
      ['agent.mjs', '--num_runs', '3', 'set.json', '--print-detailed-results', '--format=junit', '--output', 'r.xml'], FLAGS, 'eval');
    assert.deepEqual(positionals, ['agent.mjs', 'set.json']);
    assert.deepEqual(options, { num_runs: 3, print_detailed_results: true, format: 'junit', output: 'r.xml' });
    assert.deepEqual(parseArgs(['--', '--not-a-flag'], FLAGS, 'eval').positionals, ['--not-a-flag']);
    assert.equal(parseArgs(['-h'], FLAGS, 'eval').help, true);
  });

  test('mistakes are UsageErrors that say what is wrong', () => {
    const cases = [
      [['--nope'], /unknown option --nope/],
      [['--num_runs'], /--num_runs needs a value/],
      [['--num_runs', '0'], /at least 1, found "0"/],
      [['--num_runs', '2.5'], /whole number/],
      [['--concurrency=x'], /whole number/],
      [['--format', 'xml'], /one of text, json, junit, markdown/],
      [['--judge_mode', 'sometimes'], /record, replay, auto/],
      [['--print_detailed_results=maybe'], /takes no value/],
    ];
    for (const [argv, message] of cases) {
      assert.throws(() => parseArgs(argv, FLAGS, 'eval'), (e) => e instanceof UsageError && message.test(e.message), argv.join(' '));
    }
  });

  test('--judge: provider:model, base URL, cassette, the key from the environment', () => {
    assert.equal(judgeFromFlags({}, {}), undefined);
    assert.deepEqual(judgeFromFlags({ judge: 'openai:gpt-4o-mini', judge_base_url: 'http://127.0.0.1:9/v1' }, { OPENAI_API_KEY: 'k' }),
      { provider: 'openai', model: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1:9/v1', headers: { authorization: 'Bearer k' } });
    const g = judgeFromFlags({ judge: 'gemini:gemini-2.5-flash', judge_cassette: 'c.json' }, { GOOGLE_API_KEY: 'g' });
    assert.deepEqual([g.headers, g.cassette.mode, g.cassette.path.endsWith('c.json')], [{ 'x-goog-api-key': 'g' }, 'auto', true]);
    assert.deepEqual(judgeFromFlags({ judge: 'anthropic:claude', judge_cassette: 'c', judge_mode: 'replay' }, { ANTHROPIC_API_KEY: 'a' }).headers, { 'x-api-key': 'a' });
    assert.throws(() => judgeFromFlags({ judge: 'mistral:large' }, {}), /PROVIDER:MODEL/);
    assert.throws(() => judgeFromFlags({ judge_cassette: 'c' }, {}), /needs --judge/);
    assert.throws(() => judgeFromFlags({ judge: 'openai:m', judge_mode: 'replay' }, {}), /needs --judge_cassette/);
    // --judge_media: the judge sees the turns' images, audio and documents.
    assert.equal(judgeFromFlags({ judge: 'openai:m', judge_media: true }, {}).media, true);
    assert.equal(judgeFromFlags({ judge: 'openai:m' }, {}).media, undefined);
    assert.throws(() => judgeFromFlags({ judge_media: true }, {}), /--judge_media needs --judge/);
    assert.equal(parseArgs(['a.mjs', 's.json', '--judge', 'openai:m', '--judge_media'], FLAGS, 'eval').options.judge_media, true);
  });
});

describe('config discovery (ADK 2.x)', () => {
  const dir = join(work, 'app');
  mkdirSync(dir, { recursive: true });
  const set = join(dir, 'a.evalset.json');
  writeFileSync(set, '{}');
  writeFileSync(join(dir, 'other.evalset.json'), '{}');

  test('test_config.json beside the one eval set file given, when it exists', () => {
    assert.equal(resolveConfigPath(undefined, [set], 'eval'), null, 'absent: defaults');
    writeFileSync(join(dir, 'test_config.json'), '{"criteria": {"response_match_score": 0.5}}');
    assert.equal(resolveConfigPath(undefined, [set], 'eval'), join(dir, 'test_config.json'));
  });

  test('several sets, or ids, use the defaults; an explicit path must exist', () => {
    assert.equal(resolveConfigPath(undefined, [set, join(dir, 'other.evalset.json')], 'eval'), null);
    assert.equal(resolveConfigPath(undefined, ['some_id'], 'eval'), null);
    assert.equal(resolveConfigPath(join(dir, 'test_config.json'), [], 'eval'), join(dir, 'test_config.json'));
    assert.throws(() => resolveConfigPath(join(dir, 'missing.json'), [set], 'eval'), (e) => e instanceof UsageError && /config file not found/.test(e.message));
  });
});

describe("ADK's `Using evaluation criteria:` line", () => {
  // Each expected line is what google-adk 2.13's `adk eval` printed for the same config file.
  const line = (raw) => criteriaLine(loadEvalConfig(raw ?? undefined), raw);
  test('default criteria', () => {
    assert.equal(line(null), "Using evaluation criteria: criteria={'tool_trajectory_avg_score': 1.0, 'response_match_score': 0.8} "
      + 'custom_metrics=None user_simulator_config=None live_model_config=None');
  });
  test('number shorthands', () => {
    assert.equal(line({ criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.5 } }),
      "Using evaluation criteria: criteria={'tool_trajectory_avg_score': 1.0, 'response_match_score': 0.5} "
      + 'custom_metrics=None user_simulator_config=None live_model_config=None');
  });
  test('object criteria with extra fields, coerced shorthands', () => {
    assert.equal(line({ criteria: { tool_trajectory_avg_score: { threshold: 1.0, match_type: 'IN_ORDER' }, response_match_score: 0.8, x: true, y: '0.5' } }),
      "Using evaluation criteria: criteria={'tool_trajectory_avg_score': BaseCriterion(threshold=1.0, "
      + "include_intermediate_responses_in_final=False, match_type='IN_ORDER'), 'response_match_score': 0.8, 'x': 1.0, 'y': 0.5} "
      + 'custom_metrics=None user_simulator_config=None live_model_config=None');
    assert.ok(line({ criteria: { final_response_match_v2: { threshold: 0.6, judge_model_options: { judge_model: 'gemini-2.5-flash', num_samples: 3 } } } })
      .includes("'final_response_match_v2': BaseCriterion(threshold=0.6, include_intermediate_responses_in_final=False, "
        + "judge_model_options={'judge_model': 'gemini-2.5-flash', 'num_samples': 3})"));
  });
  test("live_model_config as ADK's model, from either spelling (issue 10)", () => {
    for (const live of [{ timeoutSeconds: 60 }, { timeout_seconds: 60 }, { timeout_seconds: 5, timeoutSeconds: 60 }]) {
      assert.ok(line({ criteria: {}, liveModelConfig: live }).endsWith(' live_model_config=LiveModelConfig(timeout_seconds=60)'), JSON.stringify(live));
    }
    assert.ok(line({ criteria: {}, live_model_config: {} }).endsWith(' live_model_config=LiveModelConfig(timeout_seconds=300)'));
  });
  test('Python values', () => {
    assert.equal(pyRepr({ a: [1, 2.5, null, true, "it's", 'say "x"', 'a\nb'] }), `{'a': [1, 2.5, None, True, "it's", 'say "x"', 'a\\nb']}`);
  });
});

test('legacy set ids come from the file name', () => {
  assert.equal(idFromFileName('/x/roll_die.test.json'), 'roll_die');
  assert.equal(idFromFileName('home automation.evalset.json'), 'home_automation');
  assert.equal(idFromFileName('data.json'), 'data');
  assert.equal(idFromFileName('...json'), undefined);
});

test('the progress line: bar, counts, failures including NOT_EVALUATED, elapsed time', () => {
  const p = { phase: 'case', run: 1, casesDone: 3, casesTotal: 8, passed: 2, failed: 0, notEvaluated: 1 };
  assert.equal(progressLine(p, { label: 'hello_world', runs: 2, elapsedMs: 65_000 }),
    'hello_world  run 2/2  [########------------] 3/8 cases  2 passed  1 failed  1:05');
  assert.equal(progressLine({ ...p, casesDone: 0, casesTotal: 0, notEvaluated: 0, passed: 0 }, { elapsedMs: 3_723_000 }),
    '[--------------------] 0/0 cases  0 passed  0 failed  1:02:03');
  // A remote run: its stage, and the shards.
  assert.equal(progressLine({ ...p, stage: 'score', shardsDone: 3, shardsTotal: 8, shardsRunning: 4, retries: 1 }, { elapsedMs: 5_000 }),
    'scoring  [########------------] 3/8 cases  shards 3/8 (4 running, 1 retried)  2 passed  1 failed  0:05');
  assert.equal(progressLine({ ...p, stage: 'agent' }, { elapsedMs: 0 }), 'agent  [########------------] 3/8 cases  2 passed  1 failed  0:00');
  assert.equal(progressLine({ ...p, stage: 'score', agent: { casesDone: 5, casesTotal: 8 } }, { elapsedMs: 0 }),
    'scoring (agent 5/8)  [########------------] 3/8 cases  2 passed  1 failed  0:00');
});

test('the progress display of a remote agent run: the scoring once it has begun, the agent\'s count beside it', () => {
  const tty = { isTTY: true, columns: 200, out: '', write(s) { this.out += s; } };
  const bar = createProgress(tty, { now: () => 0, env: { NO_COLOR: '1' } });
  const tally = { phase: 'case', run: 0, passed: 0, failed: 0, notEvaluated: 0 };
  bar.update({ ...tally, stage: 'agent', casesDone: 2, casesTotal: 8 });
  bar.update({ ...tally, stage: 'score', casesDone: 1, casesTotal: 8, passed: 1 });
  bar.update({ ...tally, stage: 'agent', casesDone: 3, casesTotal: 8 });
  bar.update({ ...tally, stage: 'agent', phase: 'done', casesDone: 8, casesTotal: 8 });
  bar.update({ ...tally, stage: 'score', casesDone: 2, casesTotal: 8, passed: 2 });
  bar.done();
  const frames = tty.out.split('\r\x1b[2K').filter((f) => f !== '');
  assert.match(frames[0], /^agent .* 2\/8 cases/);
  assert.match(frames[1], /^scoring \(agent 2\/8\) .* 1\/8 cases  1 passed/);
  assert.match(frames[2], /^scoring \(agent 3\/8\) .* 1\/8 cases  1 passed/);
  assert.match(frames[4], /^scoring  .* 2\/8 cases  2 passed/);
});

test('the progress display draws only on a terminal, in place, and clears itself', () => {
  const sink = (isTTY) => ({ isTTY, columns: 200, out: '', write(s) { this.out += s; } });
  const p = { phase: 'case', run: 0, casesDone: 1, casesTotal: 2, passed: 1, failed: 0, notEvaluated: 0 };
  const pipe = sink(false);
  const quiet = createProgress(pipe);
  quiet.update(p);
  quiet.done();
  assert.equal(pipe.out, '');
  assert.equal(quiet.active, false);

  const tty = sink(true);
  let t = 0;
  const bar = createProgress(tty, { now: () => t });
  bar.update(p);
  t = 2000;
  bar.update({ ...p, casesDone: 2, passed: 1, failed: 1 });
  bar.done();
  const frames = tty.out.split('\r\x1b[2K');
  assert.equal(frames[0], '');
  assert.match(frames[1], /1\/2 cases/);
  assert.match(frames[2], /2\/2 cases .*1 failed.*0:02$/);
  assert.equal(frames.at(-1), '', 'the line is cleared at the end');

  // Colours on (no NO_COLOR): a line wider than the terminal is still cut, or it would wrap and
  // the next redraw would clear only its last row.
  const narrow = { ...sink(true), columns: 30 };
  const colored = createProgress(narrow, { env: {} });
  colored.update({ ...p, failed: 1 });
  colored.done();
  const drawn = narrow.out.split('\r\x1b[2K').filter((f) => f !== '');
  assert.ok(drawn.length > 0);
  for (const f of drawn) assert.ok(f.length < 30, `cut to the terminal: ${JSON.stringify(f)}`);
  const wide = { ...sink(true), columns: 200 };
  const full = createProgress(wide, { env: {} });
  full.update({ ...p, failed: 1 });
  full.done();
  assert.match(wide.out, /\x1b\[31m1 failed\x1b\[39m/, 'colours when the line fits');
});

test("the progress display's run counter never goes back, and a judge retry's wait is shown", () => {
  const tty = { isTTY: true, columns: 300, out: '', write(s) { this.out += s; } };
  let t = 0;
  const bar = createProgress(tty, { runs: 3, now: () => t, env: { NO_COLOR: '1' } });
  const p = { phase: 'case', casesTotal: 6, failed: 0, notEvaluated: 0 };
  bar.update({ ...p, run: 1, casesDone: 2, passed: 2 });
  // A case of the first run finishing after one of the second (cases of several runs in flight).
  bar.update({ ...p, run: 0, casesDone: 3, passed: 3 });
  bar.update({ ...p, run: 0, casesDone: 3, passed: 3, phase: 'judge_retry',
    retry: { attempt: 2, maxRetries: 6, delayMs: 4000, why: 'judge call for m invocation 1 sample 1 (judge): status 429' } });
  t = 5000;
  bar.update({ ...p, run: 0, casesDone: 4, passed: 4 });
  bar.done();
  const frames = tty.out.split('\r\x1b[2K').filter((f) => f !== '');
  assert.deepEqual(frames.map((f) => f.slice(0, 7)), ['run 2/3', 'run 2/3', 'run 2/3', 'run 2/3']);
  assert.match(frames[2], /3\/6 cases .* judge retry 2\/6 in 4s \(status 429\)$/);
  assert.doesNotMatch(frames[3], /judge retry/, 'the wait is over');
});
