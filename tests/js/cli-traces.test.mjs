// `evalcore traces import` and `evalcore eval --traces`, run as child processes on traces the real
// frameworks exported (tests/data/traces): the eval set written is tracesToEvalSet's, numbers
// exactly as recorded; sessions added to an existing set skip ids it has; `eval --traces` leaves
// the result files, console output and exit status `evalcore eval` gives, and says on stderr
// what matched nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { loadEvalSet, loadEvalSetResult, tracesToEvalSet } from '../../pkg/index.js';
import { DATA, PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-traces-'));
after(() => rmSync(work, { recursive: true, force: true }));
const trace = (name) => join(DATA, 'traces', name);

function cli(args, cwd = work) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, EVALCORE_DEBUG: '', NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('traces import', () => {
  test('each session a case, the file as ADK writes it, gzip and protobuf read alike', () => {
    const out = join(work, 'imp', 'prod.evalset.json');
    const gz = join(work, 'v1.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(trace('adk-py-v1.otlp.jsonl'))));
    const r = cli(['traces', 'import', gz, trace('adk-js.otlp.pb'), '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const want = tracesToEvalSet([readFileSync(trace('adk-py-v1.otlp.jsonl')), readFileSync(trace('adk-js.otlp.pb'))], { evalSetId: 'prod', text: true });
    assert.equal(readFileSync(out, 'utf8'), want.text);
    assert.match(r.stdout, /Eval case 'session-v1' added to eval set 'prod'\./);
    assert.match(readFileSync(out, 'utf8'), /"seed": 9007199254740993/);
  });

  test('into an existing set: new sessions added, known ids skipped, numbers kept', () => {
    const out = join(work, 'add.evalset.json');
    assert.equal(cli(['traces', 'import', trace('adk-py-v1.otlp.jsonl'), '--out', out]).code, 0);
    const r = cli(['traces', 'import', trace('adk-py-v1.otlp.jsonl'), trace('adk-py-v2-span.otlp.jsonl'), '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Eval case 'session-v1' already exists in eval set 'add', skipped adding\./);
    assert.match(r.stdout, /Eval case 'session-v2-span' added/);
    const set = loadEvalSet(readFileSync(out));
    assert.deepEqual(set.eval_cases.map((c) => c.eval_id), ['session-v1', 'session-v2-span']);
    assert.equal((readFileSync(out, 'utf8').match(/9007199254740993/g) ?? []).length, 4);
  });

  test('--session picks sessions; an unknown one lists those there; warnings name the switch', () => {
    const out = join(work, 'pick.evalset.json');
    const r = cli(['traces', 'import', trace('adk-py-v1.otlp.jsonl'), trace('adk-py-v2-nocontent.otlp.jsonl'), '--session', 'session-v2-nocontent', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(loadEvalSet(readFileSync(out)).eval_cases.map((c) => c.eval_id), ['session-v2-nocontent']);
    assert.match(r.stderr, /warning: not_recorded at \$\.sessions\[0\]\.invocations\[0\]\.\w+: .*OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
    const bad = cli(['traces', 'import', trace('adk-py-v1.otlp.jsonl'), '--session', 'nope', '--out', join(work, 'nope.evalset.json')]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /no session "nope" in the traces \(sessions: session-v1\)/);
    assert.ok(!existsSync(join(work, 'nope.evalset.json')));
  });

  test('usage errors: exit 2, one line, the file named', () => {
    const bad = join(work, 'bad.jsonl');
    writeFileSync(bad, '{"resourceSpans": [}\n');
    for (const [args, pattern] of [
      [['traces', 'import', trace('adk-py-v1.otlp.jsonl')], /missing --out/],
      [['traces', 'import', '--out', 'x.evalset.json'], /missing FILE/],
      [['traces', 'import', trace('adk-py-v1.otlp.jsonl'), '--out', join(work, 'bad-id!.evalset.json')], /invalid eval set id/],
      [['traces', 'import', bad, '--out', join(work, 'b.evalset.json')], /trace file .*bad\.jsonl: .*line 1, column 20/],
      [['traces', 'frobnicate'], /unknown traces command/],
    ]) {
      const r = cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});

describe('eval --traces', () => {
  const v1 = JSON.parse(readFileSync(trace('adk-py-v1.oracle.json'), 'utf8'));

  test('against an eval set: matched sessions scored, result files written, unmatched said, exit 1', () => {
    const dir = join(work, 'app');
    mkdirSync(dir, { recursive: true });
    const setPath = join(dir, 'regress.evalset.json');
    writeFileSync(setPath, JSON.stringify({ eval_set_id: 'regress', eval_cases: [
      { eval_id: 'dice', conversation: v1.expected },
      { eval_id: 'unseen', conversation: [{ user_content: { parts: [{ text: 'never asked' }] } }] },
    ] }));
    writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.5 } }));
    copyFileSync(trace('ai-sdk-legacy.otlp.json'), join(work, 'legacy.json'));
    const r = cli(['eval', '--traces', trace('adk-py-v1.otlp.jsonl'), join(work, 'legacy.json'), setPath]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /Eval Run Summary/);
    assert.match(r.stderr, /1 case\(s\) of regress matched no recorded session \(FAILED, no_session\): unseen/);
    assert.match(r.stderr, /1 recorded session\(s\) matched no eval case and were not scored/);
    const history = join(dir, '.adk', 'eval_history');
    const files = readdirSync(history);
    assert.equal(files.length, 1);
    const result = loadEvalSetResult(readFileSync(join(history, files[0])));
    assert.deepEqual(result.eval_case_results.map((c) => [c.eval_id, c.final_eval_status]), [['dice', 'PASSED'], ['unseen', 'FAILED']]);
    const rm = result.eval_case_results[0].overall_eval_metric_results.find((m) => m.metric_name === 'response_match_score');
    assert.equal(rm.score, v1.adk_scores.response_match_score.overall_score);
  });

  test('without an eval set: reference-free, --config, JSON report, exit 0 when nothing failed', () => {
    const cfg = join(work, 'free.json');
    writeFileSync(cfg, JSON.stringify({ criteria: { response_match_score: 0.5 } }));
    const r = cli(['eval', '--traces', trace('adk-py-v2-event.otlp.jsonl'), '--config', cfg, '--format', 'json', '--no_save']);
    assert.equal(r.code, 1, r.stderr); // an INFORMATIONAL-only case is NOT_EVALUATED, which does not pass
    // A custom metric (--custom_metrics) needs no expected invocation: it scores, the case passes, exit 0.
    const mod = join(work, 'metrics.mjs');
    writeFileSync(mod, 'export function turns({ actualInvocations }) { return actualInvocations.length; }\n');
    writeFileSync(cfg, JSON.stringify({ criteria: { turns: 4 } }));
    const ok = cli(['eval', '--traces', trace('adk-py-v1.otlp.jsonl'), '--config', cfg, '--custom_metrics', mod, '--format', 'json', '--no_save']);
    assert.equal(ok.code, 0, ok.stderr);
    const report = JSON.parse(ok.stdout);
    const text = JSON.stringify(report);
    assert.match(text, /"session-v1"/);
    assert.match(text, /"turns"/);
    assert.doesNotMatch(ok.stderr, /warning.*turns/, 'a criterion --custom_metrics computes is no warning');
    const r2 = cli(['eval', '--traces', trace('adk-py-v2-event.otlp.jsonl'), '--no_save']);
    assert.match(r2.stderr, /missing_expected x\d+ \(tool_trajectory_avg_score, response_match_score\)/);
    assert.match(r2.stderr, /recorded session scored without an eval case/);
  });

  test('agent flags are refused; --session without --traces too', () => {
    for (const [args, pattern] of [
      [['eval', '--traces', trace('adk-py-v1.otlp.jsonl'), '--num_runs', '2'], /--num_runs is for agent runs/],
      [['eval', '--traces', trace('adk-py-v1.otlp.jsonl'), '--detach'], /--detach is for agent runs/],
      [['eval', 'agent.mjs', 'x.evalset.json', '--session', 's'], /--session needs --traces/],
      [['eval', '--traces', trace('adk-py-v1.otlp.jsonl'), '--session', 'nope', '--no_save'], /the traces have no session "nope"/],
    ]) {
      const r = cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
    }
  });
});
