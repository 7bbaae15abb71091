// `evalcore eval_set create|add_eval_case` and `evalcore migrate`, run as child processes. The
// expected files and eval ids are what google-adk 2.13's `adk eval_set ...` wrote for the same
// input (SPEC §5.4: ids from SHA-256 of the scenario dumped as Python's json.dumps with sorted
// keys and `"user_persona": null`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadEvalSet } from '../../pkg/index.js';
import { scenarioEvalId } from '../../pkg/lib/wasm/adk_text.js';
import { PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const work = mkdtempSync(join(tmpdir(), 'evalcore-cli-eval-set-'));
after(() => rmSync(work, { recursive: true, force: true }));

function cli(args, cwd = work) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, EVALCORE_DEBUG: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A user error: exit 2, one line on stderr, no stack trace. */
function assertUsageError(r, pattern) {
  assert.equal(r.code, 2, `exit code 2 expected, got ${r.code}\nstderr: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected:\n${r.stderr}`);
  assert.ok(!/\n\s+at /.test(r.stderr), 'no stack trace');
}

function app(name) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agent.mjs'), 'export const agent = async () => "hi";\n');
  return dir;
}

describe('eval_set create', () => {
  test("writes ADK's empty set and refuses to overwrite it", () => {
    const dir = app('my_app');
    const r = cli(['eval_set', 'create', join(dir, 'agent.mjs'), 'my_set']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Eval set 'my_set' created for app 'my_app'.\n");
    const text = readFileSync(join(dir, 'my_set.evalset.json'), 'utf8');
    assert.match(text, /^\{\n {2}"eval_set_id": "my_set",\n {2}"name": "my_set",\n {2}"eval_cases": \[\],\n {2}"creation_timestamp": \d+\.\d+\n\}$/);
    assertUsageError(cli(['eval_set', 'create', dir, 'my_set']), /already exists/);
  });

  test('ids must match ^[a-zA-Z0-9_]+$; the agent must exist', () => {
    const dir = app('app2');
    assertUsageError(cli(['eval_set', 'create', dir, 'bad-id']), /\^\[a-zA-Z0-9_\]\+\$/);
    assertUsageError(cli(['eval_set', 'create', dir, '../escape']), /invalid eval set id/);
    assertUsageError(cli(['eval_set', 'create', join(work, 'nowhere'), 'x']), /agent module not found/);
    assertUsageError(cli(['eval_set', 'create', dir]), /expected AGENT_MODULE EVAL_SET_ID/);
    assertUsageError(cli(['eval_set', 'frobnicate']), /unknown eval_set command/);
    assert.ok(!existsSync(join(dir, 'bad-id.evalset.json')));
  });
});

describe('eval_set add_eval_case', () => {
  const scenarios = {
    scenarios: [
      { starting_prompt: 'Hi', conversation_plan: 'Ask about é ☃ things' },
      { startingPrompt: 'Roll', conversationPlan: 'Roll a die\nthen stop' },
    ],
  };

  test("ADK's eval ids; cases already present are skipped; the file is ADK's", () => {
    const dir = app('add_app');
    assert.equal(cli(['eval_set', 'create', dir, 'my_set']).code, 0);
    writeFileSync(join(work, 'scen.json'), JSON.stringify(scenarios));
    writeFileSync(join(work, 'sess.json'), JSON.stringify({ app_name: 'my_app', user_id: 'u1', state: { a: 1 } }));
    const args = ['eval_set', 'add_eval_case', dir, 'my_set', '--scenarios_file', join(work, 'scen.json'), '--session_input_file', join(work, 'sess.json')];
    const first = cli(args);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "Eval case 'c39cd4eb' added to eval set 'my_set'.\nEval case '564d98bb' added to eval set 'my_set'.\n");
    const again = cli(args);
    assert.equal(again.stdout, "Eval case 'c39cd4eb' already exists in eval set 'my_set', skipped adding.\n"
      + "Eval case '564d98bb' already exists in eval set 'my_set', skipped adding.\n");

    const text = readFileSync(join(dir, 'my_set.evalset.json'), 'utf8');
    // ADK's file with its timestamps replaced by T.
    const expected = `{
  "eval_set_id": "my_set",
  "name": "my_set",
  "eval_cases": [
    {
      "eval_id": "c39cd4eb",
      "conversation_scenario": {
        "starting_prompt": "Hi",
        "conversation_plan": "Ask about é ☃ things"
      },
      "session_input": {
        "app_name": "my_app",
        "user_id": "u1",
        "state": {
          "a": 1
        }
      },
      "creation_timestamp": T
    },
    {
      "eval_id": "564d98bb",
      "conversation_scenario": {
        "starting_prompt": "Roll",
        "conversation_plan": "Roll a die\\nthen stop"
      },
      "session_input": {
        "app_name": "my_app",
        "user_id": "u1",
        "state": {
          "a": 1
        }
      },
      "creation_timestamp": T
    }
  ],
  "creation_timestamp": T
}`;
    assert.equal(text.replace(/"creation_timestamp": \d+\.\d+/g, '"creation_timestamp": T'), expected);
    assert.equal(loadEvalSet(text).eval_cases.length, 2);
  });

  // ADK hashes and saves a built-in persona id as its own persona text; evalcore's personas are
  // written in its own words, so such a case's id differs from ADK's (docs/compatibility.md). Without
  // a persona, or with a persona object, the id is ADK's.
  test("a persona id hashes (and is saved) as evalcore's persona object", () => {
    assert.equal(scenarioEvalId({ starting_prompt: 'Hi', conversation_plan: 'x', user_persona: 'EXPERT' }), '3f975e33');
    assert.equal(scenarioEvalId({ starting_prompt: 'Hi', conversation_plan: 'Ask about é ☃ things' }), 'c39cd4eb');
    assert.notEqual(scenarioEvalId({ starting_prompt: 'Hi', conversation_plan: 'x', user_persona: 'NOVICE' }), '3f975e33');
    const dir = app('persona_app');
    assert.equal(cli(['eval_set', 'create', dir, 's']).code, 0);
    writeFileSync(join(work, 'p.json'), JSON.stringify({ scenarios: [{ starting_prompt: 'Hi', conversation_plan: 'x', user_persona: 'EXPERT' }] }));
    writeFileSync(join(work, 'ps.json'), JSON.stringify({ app_name: 'a', user_id: 'u' }));
    const r = cli(['eval_set', 'add_eval_case', dir, 's', '--scenarios_file', join(work, 'p.json'), '--session_input_file', join(work, 'ps.json')]);
    assert.equal(r.stdout, "Eval case '3f975e33' added to eval set 's'.\n", r.stderr);
    const saved = JSON.parse(readFileSync(join(dir, 's.evalset.json'), 'utf8'));
    assert.equal(saved.eval_cases[0].conversation_scenario.user_persona.id, 'EXPERT');
    assert.ok(saved.eval_cases[0].conversation_scenario.user_persona.behaviors.length > 0);
    assert.match(saved.eval_cases[0].conversation_scenario.user_persona.description, /^Knows precisely what they want/);
    assert.equal(loadEvalSet(readFileSync(join(dir, 's.evalset.json'), 'utf8')).eval_cases.length, 1, 'the saved persona object loads');
    assert.deepEqual(saved.eval_cases[0].session_input, { app_name: 'a', user_id: 'u' }, 'default (empty) state is left out');
  });

  test('bad input: one line, exit 2, nothing written', () => {
    const dir = app('bad_app');
    assert.equal(cli(['eval_set', 'create', dir, 's']).code, 0);
    const before = readFileSync(join(dir, 's.evalset.json'), 'utf8');
    const write = (name, v) => { writeFileSync(join(work, name), typeof v === 'string' ? v : JSON.stringify(v)); return join(work, name); };
    const sess = write('ok-sess.json', { app_name: 'a', user_id: 'u' });
    const add = (scen, session = sess, set = 's') => cli(['eval_set', 'add_eval_case', dir, set, '--scenarios_file', scen, '--session_input_file', session]);
    assertUsageError(add(write('b1.json', '{')), /invalid_json/);
    assertUsageError(add(write('b2.json', { scenarios: [{ starting_prompt: 'x' }] })), /schema at \$\.scenarios\[0\]/);
    assertUsageError(add(write('b3.json', { scenarios: [], extra: 1 })), /unknown field "extra"/);
    assertUsageError(add(write('b4.json', { scenarios: [{ starting_prompt: 'x', conversation_plan: 'y' }] }), write('bs.json', { user_id: 'u' })), /bs\.json/);
    assertUsageError(add(join(work, 'missing.json')), /scenarios file not found/);
    assertUsageError(add(dir), /not_found: scenarios file .*: EISDIR$/m);
    assertUsageError(add(write('b5.json', { scenarios: [] }), sess, 'absent_set'), /eval set absent_set not found/);
    assertUsageError(cli(['eval_set', 'add_eval_case', dir, 's', '--scenarios_file', 'x']), /missing --session_input_file/);
    assert.equal(readFileSync(join(dir, 's.evalset.json'), 'utf8'), before);
  });
});

describe('migrate', () => {
  const legacy = [
    { query: 'Roll a die', expected_tool_use: [{ tool_name: 'roll_die', tool_input: { sides: 6 } }], reference: 'I rolled 4', mock_tool_output: 'ignored' },
    { query: 'Again?', reference: '' },
  ];

  test("a legacy *.test.json becomes a full eval set (every field, nulls included), the set id from the file name, the case id its path (ADK's)", () => {
    const old = join(work, 'roll_die.test.json');
    writeFileSync(old, JSON.stringify(legacy));
    writeFileSync(join(work, 'session.json'), JSON.stringify({ app_name: 'dice', user_id: 'u1', state: { k: 1 } }));
    const out = join(work, 'roll_die.evalset.json');
    const r = cli(['migrate', old, out, '--initial_session_file', join(work, 'session.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /eval set 'roll_die' with 1 eval case/);
    const text = readFileSync(out, 'utf8');
    const set = JSON.parse(text);
    assert.deepEqual(Object.keys(set), ['eval_set_id', 'name', 'description', 'eval_cases', 'creation_timestamp']);
    assert.equal(set.description, null);
    const [c] = set.eval_cases;
    assert.equal(c.eval_id, old, "ADK's migration names the case after the old file's path");
    assert.deepEqual(c.session_input, { app_name: 'dice', user_id: 'u1', session_id: null, state: { k: 1 } });
    assert.equal(c.conversation.length, 2);
    const part = c.conversation[0].user_content.parts[0];
    assert.equal(Object.keys(part).length, 17, 'every genai Part field');
    assert.equal(part.text, 'Roll a die');
    assert.equal(part.function_call, null);
    assert.deepEqual(c.conversation[0].intermediate_data.tool_uses, [{ id: null, args: { sides: 6 }, name: 'roll_die', partial_args: null, will_continue: null }]);
    assert.match(text, /"creation_timestamp": 0\.0/);
    const again = loadEvalSet(text);
    assert.equal(again.eval_cases[0].conversation[1].user_content.parts[0].text, 'Again?');
  });

  test('migrating twice gives the same file (deterministic ids)', () => {
    const old = join(work, 'det.test.json');
    writeFileSync(old, JSON.stringify(legacy));
    assert.equal(cli(['migrate', old, join(work, 'd1.json')]).code, 0);
    assert.equal(cli(['migrate', old, join(work, 'd2.json')]).code, 0);
    assert.equal(readFileSync(join(work, 'd1.json'), 'utf8'), readFileSync(join(work, 'd2.json'), 'utf8'));
  });

  test('errors: missing file, an eval set with an initial session, bad legacy data', () => {
    assertUsageError(cli(['migrate', join(work, 'nope.test.json'), join(work, 'x.json')]), /file not found/);
    const current = join(work, 'current.evalset.json');
    writeFileSync(current, JSON.stringify({ eval_set_id: 'cur', eval_cases: [] }));
    writeFileSync(join(work, 's.json'), JSON.stringify({ app_name: 'a', user_id: 'u', state: {} }));
    assertUsageError(cli(['migrate', current, join(work, 'y.json'), '--initial_session_file', join(work, 's.json')]), /already an eval set/);
    assert.equal(cli(['migrate', current, join(work, 'y.json')]).code, 0, 'an eval set without a session file is written as it is');
    const bad = join(work, 'bad.test.json');
    writeFileSync(bad, JSON.stringify([{ reference: 'no query' }]));
    assertUsageError(cli(['migrate', bad, join(work, 'z.json')]), /bad\.test\.json/);
    assert.ok(!existsSync(join(work, 'z.json')));
    assertUsageError(cli(['migrate', bad]), /expected OLD_FILE NEW_FILE/);
    const folder = cli(['migrate', work, join(work, 'f.json')]);
    assertUsageError(folder, /EISDIR/);
    assert.ok(folder.stderr.includes(`${work}: EISDIR`), `the message names the folder: ${folder.stderr}`);
  });
});

describe('migrate: what ADK creates, rejects and converts', () => {
  const turns = [{ query: 'Roll a die', expected_tool_use: [{ tool_name: 'roll_die', tool_input: { sides: 6 } }], reference: 'I rolled 4' }];
  const folder = (name) => {
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  test('writes into a folder that does not exist yet', () => {
    const dir = folder('mkdir');
    const old = join(dir, 'old.test.json');
    writeFileSync(old, JSON.stringify(turns));
    const out = join(dir, 'new', 'deeper', 'old.evalset.json');
    const r = cli(['migrate', old, out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(loadEvalSet(readFileSync(out)).eval_cases.length, 1);
    // A relative path, as typed: the case id is the path as given, as in ADK.
    const rel = cli(['migrate', 'old.test.json', join('rel', 'old.evalset.json')], dir);
    assert.equal(rel.code, 0, rel.stderr);
    assert.equal(loadEvalSet(readFileSync(join(dir, 'rel', 'old.evalset.json'))).eval_cases[0].eval_id, 'old.test.json');
  });

  test("a criterion in the test_config.json beside the old file that legacy data cannot carry is rejected, as in ADK", () => {
    const dir = folder('badkey');
    const old = join(dir, 'old.test.json');
    writeFileSync(old, JSON.stringify(turns));
    writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { tool_trajectory_avg_score: 1, final_response_match_v2: 0.5 } }));
    const r = cli(['migrate', old, join(dir, 'out.json')]);
    assertUsageError(r, /schema at \$\.criteria\.final_response_match_v2: .*cannot be migrated under the criterion "final_response_match_v2"/);
    assert.match(r.stderr, /test_config\.json/);
    assert.ok(!existsSync(join(dir, 'out.json')));
    // The criteria ADK allows pass.
    writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { tool_trajectory_avg_score: 1, response_match_score: 0.8, safety_v1: 0.5 } }));
    assert.equal(cli(['migrate', old, join(dir, 'out.json')]).code, 0);
  });

  test('a first turn without `reference` under response_match_score is rejected, as in ADK (also under the default criteria)', () => {
    const dir = folder('noref');
    const old = join(dir, 'old.test.json');
    writeFileSync(old, JSON.stringify([{ query: 'Roll a die', expected_tool_use: [] }, { query: 'Again', reference: 'ok' }]));
    const r = cli(['migrate', old, join(dir, 'out.json')]);
    assertUsageError(r, /schema at \$\[0\]: .*old\.test\.json: the first turn has no `reference`, which response_match_score reads \(a criterion from ADK's defaults, as no test_config\.json is beside the file\)/);
    writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { tool_trajectory_avg_score: 1 } }));
    assert.equal(cli(['migrate', old, join(dir, 'out.json')]).code, 0, 'without response_match_score, no reference is needed');
    writeFileSync(join(dir, 'test_config.json'), JSON.stringify({ criteria: { response_match_score: 0.8 } }));
    assertUsageError(cli(['migrate', old, join(dir, 'out2.json')]), /no `reference`, which response_match_score reads \(a criterion from .*test_config\.json\)/);
    writeFileSync(join(dir, 'empty.test.json'), '[]');
    assertUsageError(cli(['migrate', join(dir, 'empty.test.json'), join(dir, 'out3.json')]), /has no turns/);
  });

  test("an eval set in @iqai/adk's camelCase shape is converted to ADK's", () => {
    const dir = folder('iqai');
    const old = join(dir, 'weather.test.json');
    writeFileSync(old, JSON.stringify({
      evalSetId: 'weather-tests', name: 'Weather', creationTimestamp: 1700000000000,
      evalCases: [{ evalId: 'case-1', conversation: [{ creationTimestamp: 0,
        userContent: { role: 'user', parts: [{ text: 'Weather in London?' }] },
        finalResponse: { role: 'model', parts: [{ text: 'Sunny' }] },
        intermediateData: { toolUses: [{ name: 'get_weather', args: { city: 'London' } }], intermediateResponses: [] } }] }],
    }));
    const out = join(dir, 'weather.evalset.json');
    const r = cli(['migrate', old, out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /eval set 'weather-tests' with 1 eval case/);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(written.eval_set_id, 'weather-tests');
    assert.equal(written.creation_timestamp, 1700000000);
    assert.equal(written.eval_cases[0].eval_id, 'case-1');
    assert.equal(written.eval_cases[0].conversation[0].intermediate_data.tool_uses[0].name, 'get_weather');
  });
});

test('--help for every command', () => {
  for (const [args, pattern] of [[['--help'], /Commands:/], [['eval', '--help'], /--num_runs N/], [['eval_set', '--help'], /add_eval_case/],
    [['eval_set', 'create', '--help'], /create/], [['migrate', '--help'], /--initial_session_file/]]) {
    const r = cli(args);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, pattern);
  }
  // A missing command is a usage error: the help goes to stderr, stdout stays empty.
  for (const args of [[], ['eval_set']]) {
    const r = cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /Usage: evalcore/);
    assert.equal(r.stdout, '', args.join(' '));
  }
});
