// Eval-set management (issue 14 item 4): the Store contract (memoryStore, fsStore), ADK's
// EvalSetsManager / EvalSetResultsManager rules over it, files byte for byte as google-adk 2.13
// writes them, and round trips of the ADK corpus through fsStore.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import { EvalError, loadEvalSet, loadEvalSetResult } from '../../pkg/index.js';
import { createHandler, evalSetsManager, fsStore, memoryStore } from '../../pkg/lib/server/index.js';
import { idFromFileName, readEvalSetFile } from '../../pkg/lib/node/evalsets.js';
import { ROOT, SHARED } from './helpers.mjs';
import { CASE_A2, TIMES, storeScenario } from './support/store-scenario.mjs';

const work = mkdtempSync(join(tmpdir(), 'evalcore-store-'));
after(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(work, `d${n++}`);
const bytes = (s) => new TextEncoder().encode(s);
const text = (b) => new TextDecoder().decode(b);

const STORES = {
  memoryStore: () => memoryStore(),
  fsStore: () => fsStore(freshDir()),
};

const BAD_KEYS = [
  ['', 'empty'], ['/etc/passwd', 'leading /'], ['../x', '..'], ['a/../../x', '..'], ['a/./b', '.'], ['..', '..'],
  ['a\\b', 'backslash'], ['a\0b', 'NUL'], ['C:x', 'drive'], ['a//b', 'empty segment'], ['a/', 'trailing /'],
  ['x'.repeat(513), 'too long'], [7, 'not a string'], [null, 'null'],
];

for (const [name, make] of Object.entries(STORES)) {
  describe(`${name}: the Store contract`, () => {
    test('put, get, delete: bytes in, the same bytes out, null when absent', async () => {
      const s = make();
      assert.equal(await s.get('a/b.json'), null);
      const value = bytes('{"x": "é"}\n');
      await s.put('a/b.json', value);
      value[0] = 0; // the store kept its own copy
      assert.deepEqual(await s.get('a/b.json'), bytes('{"x": "é"}\n'));
      assert.ok((await s.get('a/b.json')) instanceof Uint8Array);
      await s.put('a/b.json', bytes('2'));
      assert.equal(text(await s.get('a/b.json')), '2');
      await s.delete('a/b.json');
      assert.equal(await s.get('a/b.json'), null);
      await s.delete('a/b.json'); // deleting nothing is no error
      await s.put('empty', new Uint8Array(0));
      assert.deepEqual(await s.get('empty'), new Uint8Array(0));
    });

    test('list is one folder level, sorted, by key prefix', async () => {
      const s = make();
      for (const k of ['app/z.json', 'app/a.json', 'app/sub/deep.json', 'app2/x.json', 'top.json', 'app/ab.json']) await s.put(k, bytes(k));
      assert.deepEqual(await s.list('app/'), ['app/a.json', 'app/ab.json', 'app/z.json']);
      assert.deepEqual(await s.list('app/a'), ['app/a.json', 'app/ab.json']);
      assert.deepEqual(await s.list('app/sub/'), ['app/sub/deep.json']);
      assert.deepEqual(await s.list(''), ['top.json']);
      assert.deepEqual(await s.list('app'), [], 'app/... and app2/... are one level down');
      assert.deepEqual(await s.list('none/'), []);
    });

    test('keys that could leave the root are refused with invalid_path', async () => {
      const s = make();
      for (const [key, why] of BAD_KEYS) {
        for (const op of [() => s.get(key), () => s.put(key, bytes('x')), () => s.delete(key)]) {
          await assert.rejects(op, (e) => e instanceof EvalError && e.code === 'invalid_path' && /store key/.test(e.message), `${why}: ${String(key).slice(0, 20)}`);
        }
      }
      for (const prefix of ['../', '/', 'a/../', 'a\\', 'a//']) {
        await assert.rejects(() => s.list(prefix), (e) => e.code === 'invalid_path', prefix);
      }
      await assert.rejects(() => s.put('k', 'text'), (e) => e.code === 'schema' && /Uint8Array/.test(e.message));
    });
  });
}

describe('fsStore on disk', () => {
  test('keys are paths under the root; writes leave no temporary file behind', async () => {
    const root = freshDir();
    const s = fsStore(root);
    await s.put('app/.adk/eval_history/r.evalset_result.json', bytes('{}'));
    assert.equal(readFileSync(join(root, 'app', '.adk', 'eval_history', 'r.evalset_result.json'), 'utf8'), '{}');
    const all = [];
    const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) (e.isDirectory() ? walk(join(d, e.name)) : all.push(relative(root, join(d, e.name)))); };
    walk(root);
    assert.deepEqual(all, [join('app', '.adk', 'eval_history', 'r.evalset_result.json')]);
    assert.ok(!existsSync(join(work, 'app')), 'nothing was written outside the root');
  });

  test('a reader sees the old file or the new one, never a part (temp file + rename)', async () => {
    const root = freshDir();
    const s = fsStore(root);
    const old = bytes('a'.repeat(4 << 20));
    const neu = bytes('b'.repeat(4 << 20));
    await s.put('big', old);
    const seen = new Set();
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 6; i++) await s.put('big', i % 2 ? old : neu);
      writing = false;
    })();
    while (writing) {
      const got = readFileSync(join(root, 'big'));
      seen.add(got.length === old.length && (got.every((b) => b === 0x61) ? 'old' : got.every((b) => b === 0x62) ? 'new' : 'mixed'));
      await new Promise((r) => setImmediate(r));
    }
    await writer;
    assert.ok(!seen.has('mixed') && !seen.has(false), `reads saw ${[...seen].join(', ')}`);
  });

  test('a FIFO or a folder at a key is refused, not read (and never blocks)', async () => {
    const root = freshDir();
    mkdirSync(join(root, 'app', 'dir.evalset.json'), { recursive: true });
    execFileSync('mkfifo', [join(root, 'app', 'fifo.evalset.json')]);
    const s = fsStore(root);
    await assert.rejects(() => s.get('app/fifo.evalset.json'), (e) => e.code === 'not_a_file');
    await assert.rejects(() => s.get('app/dir.evalset.json'), (e) => e.code === 'not_a_file');
    assert.deepEqual(await s.list('app/'), [], 'only regular files are listed');
    assert.deepEqual(await evalSetsManager(s).listEvalSets('app'), []);
  });

  test('a symlink to a file is read and listed like one', async () => {
    const root = freshDir();
    mkdirSync(join(root, 'app'), { recursive: true });
    writeFileSync(join(work, `linked${n}.json`), '{"eval_set_id": "linked", "eval_cases": []}');
    symlinkSync(join(work, `linked${n}.json`), join(root, 'app', 'linked.evalset.json'));
    const m = evalSetsManager(fsStore(root));
    assert.deepEqual(await m.listEvalSets('app'), ['linked']);
    assert.equal((await m.getEvalSet('app', 'linked')).eval_set_id, 'linked');
  });

  test('nothing is written or deleted through an app or .adk folder that is a link leaving the root; a link inside it is fine', async () => {
    const root = freshDir();
    const outside = freshDir();
    mkdirSync(join(outside, '.adk'), { recursive: true });
    mkdirSync(join(root, 'safe', 'real'), { recursive: true });
    symlinkSync(outside, join(root, 'escaped'), 'dir');
    mkdirSync(join(root, 'app'), { recursive: true });
    symlinkSync(join(outside, '.adk'), join(root, 'app', '.adk'), 'dir');
    symlinkSync(join(root, 'safe', 'real'), join(root, 'inner'), 'dir');
    writeFileSync(join(outside, 'keep.evalset.json'), '{}');
    const s = fsStore(root);
    const refused = (e) => e instanceof EvalError && e.code === 'invalid_path' && /is a link to .*outside the store's root/.test(e.message);
    await assert.rejects(() => s.put('escaped/x.evalset.json', bytes('{}')), refused);
    await assert.rejects(() => s.put('escaped/new/deeper/x.json', bytes('{}')), refused);
    await assert.rejects(() => s.put('app/.adk/eval_history/r.evalset_result.json', bytes('{}')), refused);
    await assert.rejects(() => s.delete('escaped/keep.evalset.json'), refused);
    const m = evalSetsManager(s);
    await assert.rejects(() => m.createEvalSet('escaped', 'set1'), refused);
    await assert.rejects(() => m.saveEvalSetResult('app', 'set1', []), refused);
    assert.deepEqual(readdirSync(outside).sort(), ['.adk', 'keep.evalset.json']);
    assert.deepEqual(readdirSync(join(outside, '.adk')), [], 'nothing written through the links');
    await s.put('inner/x.json', bytes('{}'));
    assert.equal(readFileSync(join(root, 'safe', 'real', 'x.json'), 'utf8'), '{}');
    // The root itself may be a link: its target is the root.
    const linkedRoot = join(work, `root-link-${n}`);
    symlinkSync(root, linkedRoot, 'dir');
    await fsStore(linkedRoot).put('safe/y.json', bytes('{}'));
    assert.ok(existsSync(join(root, 'safe', 'y.json')));
  });

  test('temporary files a crashed writer left are removed by the next write or listing in their folder, fresh ones kept', async () => {
    const { utimesSync } = await import('node:fs');
    const root = freshDir();
    mkdirSync(join(root, 'app', '.adk', 'eval_history'), { recursive: true });
    const stale = [join(root, 'app', '.evalcore-3-k2j4h5.tmp'), join(root, 'app', '.adk', 'eval_history', '.evalcore-9-zz0.tmp')];
    const fresh = join(root, 'app', '.evalcore-4-fresh1.tmp');
    const other = join(root, 'app', '.evalcore-notes.tmp');
    const old = new Date(Date.now() - 60 * 60 * 1000);
    for (const f of [...stale, fresh, other]) writeFileSync(f, 'half a file');
    for (const f of [...stale, other]) utimesSync(f, old, old);
    const s = fsStore(root);
    await s.put('app/x.evalset.json', bytes('{}'));
    assert.ok(!existsSync(stale[0]), 'the stale one is gone');
    assert.ok(existsSync(fresh), 'a fresh one may belong to a writer at work');
    assert.ok(existsSync(other), 'only our own temporary names are touched');
    assert.deepEqual(await s.list('app/.adk/eval_history/'), []);
    assert.ok(!existsSync(stale[1]));
  });

  test('fsStore needs a root', () => {
    assert.throws(() => fsStore(''), (e) => e.code === 'config');
    assert.throws(() => fsStore(undefined), (e) => e.code === 'config');
  });
});

describe('evalSetsManager: ADK\'s rules', () => {
  test('the scenario gives the same transcript over memoryStore and fsStore', async () => {
    const a = await storeScenario(evalSetsManager, memoryStore());
    const b = await storeScenario(evalSetsManager, fsStore(freshDir()));
    assert.deepEqual(b, a);
  });

  test('the scenario, step by step', async () => {
    const t = Object.fromEntries((await storeScenario(evalSetsManager, memoryStore())).map(({ step, ...r }) => [step, r]));
    assert.deepEqual(t['list before anything'], { value: [] });
    assert.deepEqual(t['get a missing set'], { value: null });
    assert.deepEqual(t.create, { value: { eval_set_id: 'set_1', name: 'set_1', eval_cases: [], creation_timestamp: TIMES[0] } });
    assert.deepEqual(t['create again'], { error: { code: 'duplicate_id', path: '' } });
    assert.deepEqual(t['create with a bad id'], { error: { code: 'schema', path: '' } });
    assert.deepEqual(t['create in a bad app'], { error: { code: 'invalid_path', path: '' } });
    assert.deepEqual(t.list, { value: ['set_0', 'set_1'] });
    assert.deepEqual(t['add a'], { value: null });
    assert.deepEqual(t['add a again'], { error: { code: 'duplicate_id', path: '$.eval_id' } });
    assert.deepEqual(t['add to a missing set'], { error: { code: 'not_found', path: '' } });
    assert.deepEqual(t['add a bad case'], { error: { code: 'schema', path: '$.conversation[0].user_content' } });
    assert.equal(t['get case b'].value.eval_id, 'case_b');
    assert.deepEqual(t['get case b'].value.session_input, { app_name: 'weather', user_id: 'u1', state: { city: 'Paris' } });
    assert.deepEqual(t['get a missing case'], { value: null });
    assert.deepEqual(t['update a missing case'], { error: { code: 'not_found', path: '$.eval_id' } });
    // ADK 2.13 replaces the case where it stands.
    assert.deepEqual(t['get the set'].value.eval_cases.map((c) => c.eval_id), ['case_a', 'case_b']);
    assert.equal(t['get the set'].value.eval_cases[0].conversation[0].user_content.parts[0].text, CASE_A2.conversation[0].user_content.parts[0].text);
    assert.deepEqual(t['delete b again'], { error: { code: 'not_found', path: '' } });
    assert.deepEqual(t['case ids after'], { value: ['case_a'] });
    assert.deepEqual(t['concurrent adds'], { value: Array.from({ length: 12 }, (_, i) => `c${i}`).sort() });
    assert.deepEqual(t['results before'], { value: [] });
    const saved = t['save a result'].value;
    const id = `app_set_1_${TIMES[2]}`; // the clock's third reading: two sets were created before
    assert.equal(saved.eval_set_result_id, id);
    assert.equal(saved.eval_set_result_name, id);
    assert.equal(saved.creation_timestamp, TIMES[2]);
    assert.equal(saved.eval_case_results[0].final_eval_status, 'PASSED');
    assert.equal(saved.eval_case_results[0].eval_set_file, null, 'case results are stored as given, as ADK\'s manager stores them');
    assert.deepEqual(t['save results that are not a list'], { error: { code: 'schema', path: '$' } });
    assert.deepEqual(t['list results'], { value: [id] });
    assert.deepEqual(t['get the result'], { value: saved });
    assert.deepEqual(t['get a missing result'], { value: null });
    assert.deepEqual(t['get a result by a path'], { error: { code: 'invalid_path', path: '' } });
    assert.deepEqual(t['sets are not results'], { value: ['set_0', 'set_1'] });
    assert.deepEqual(t['other app is empty'], { value: [] });
    assert.deepEqual(t['raw keys'], { value: ['app/set_0.evalset.json', 'app/set_1.evalset.json'] });
    assert.deepEqual(t['raw history keys'], { value: [`app/.adk/eval_history/${id}.evalset_result.json`] });
    assert.deepEqual(t['raw get of the created set'], { value: ['{', '  "eval_set_id": "set_0",', '  "name": "set_0",', '  "eval_cases": ['] });
    assert.deepEqual(t['a key out of the root'], { error: { code: 'invalid_path', path: '' } });
  });

  test('messages say what to do', async () => {
    const m = evalSetsManager(memoryStore());
    await assert.rejects(() => m.addEvalCase('app', 's', { eval_id: 'x', conversation: [] }), /eval set "s" not found for app "app"; create it first/);
    await m.createEvalSet('app', 's');
    await assert.rejects(() => m.createEvalSet('app', 's'), /eval set "s" already exists for app "app"/);
    await assert.rejects(() => m.createEvalSet('app', 'a b'), /must match \^\[a-zA-Z0-9_\]\+\$/);
    await assert.rejects(() => m.updateEvalCase('app', 's', { eval_id: 'x', conversation: [] }), /eval case "x" not found in eval set "s" of app "app"; add it first/);
    await assert.rejects(() => m.addEvalCase('app', 's', 'text'), (e) => e.code === 'schema' && e.path === '$' && /expected an EvalCase object/.test(e.message));
    await assert.rejects(() => m.getEvalCase('app', 's', ''), (e) => e.code === 'schema');
    await assert.rejects(() => m.listEvalSets('a/b'), (e) => e.code === 'invalid_path' && /app_name "a\/b" must not contain path separators/.test(e.message));
    const bad = { eval_id: 'd', final_eval_status: 9, overall_eval_metric_results: [], eval_metric_result_per_invocation: [], session_id: '' };
    await assert.rejects(() => m.saveEvalSetResult('app', 's', [{ ...bad, final_eval_status: 'PASSED' }, bad]),
      (e) => e.code === 'schema' && e.path === '$[1].final_eval_status' && /eval case result: expected an eval status/.test(e.message));
    assert.deepEqual(await m.listEvalSetResults('app'), [], 'nothing is stored when a result is refused');
    await assert.rejects(() => evalSetsManager(memoryStore(), { now: () => NaN }).createEvalSet('app', 's'), (e) => e.code === 'config' && /gave NaN/.test(e.message));
  });

  test('a broken file is an error naming its key, never a silent null', async () => {
    const s = memoryStore();
    await s.put('app/broken.evalset.json', bytes('{"eval_set_id": '));
    await s.put('app/.adk/eval_history/r.evalset_result.json', bytes('[]'));
    const m = evalSetsManager(s);
    await assert.rejects(() => m.getEvalSet('app', 'broken'), (e) => e.code === 'invalid_json' && /eval set app\/broken\.evalset\.json: /.test(e.message));
    await assert.rejects(() => m.getEvalSetResult('app', 'r'), (e) => /eval set result app\/.adk\/eval_history\/r\.evalset_result\.json: /.test(e.message));
    await assert.rejects(() => m.addEvalCase('app', 'broken', { eval_id: 'x', conversation: [] }), (e) => e.code === 'invalid_json');
  });

  test('a legacy list file takes the id it was looked up by (ADK\'s fallback)', async () => {
    const s = memoryStore();
    await s.put('app/old.evalset.json', bytes(JSON.stringify([{ name: 'c1', data: [{ query: 'hi', reference: 'hello' }], initial_session: {} }])));
    const set = await evalSetsManager(s).getEvalSet('app', 'old');
    assert.equal(set.eval_set_id, 'old');
    assert.deepEqual(set.eval_cases.map((c) => c.eval_id), ['c1']);
  });

  test('the manager needs a Store', () => {
    assert.throws(() => evalSetsManager(null), (e) => e.code === 'config');
    assert.throws(() => evalSetsManager({ get() {}, put() {}, list() {} }), (e) => e.code === 'config' && /delete\(\)/.test(e.message));
    assert.throws(() => evalSetsManager(memoryStore(), { now: 5 }), (e) => e.code === 'config');
  });

  test('createHandler({ store }) exposes the manager as handler.evalSets', async () => {
    assert.equal(createHandler().evalSets, null);
    const handler = createHandler({ store: memoryStore() });
    await handler.evalSets.createEvalSet('app', 'via_handler');
    assert.deepEqual(await handler.evalSets.listEvalSets('app'), ['via_handler']);
    assert.throws(() => createHandler({ store: {} }), (e) => e.code === 'config');
  });
});

describe('fsStore files as google-adk 2.13 writes and reads them', () => {
  test('create writes what LocalEvalSetsManager.create_eval_set writes', async () => {
    const root = freshDir();
    await evalSetsManager(fsStore(root), { now: () => 1795000000.5 }).createEvalSet('my_agent', 'smoke');
    // pydantic's model_dump_json(indent=2, exclude_unset/defaults/none) of the new EvalSet.
    assert.equal(readFileSync(join(root, 'my_agent', 'smoke.evalset.json'), 'utf8'),
      '{\n  "eval_set_id": "smoke",\n  "name": "smoke",\n  "eval_cases": [],\n  "creation_timestamp": 1795000000.5\n}');
  });

  test('a saved result is byte for byte the file ADK wrote for the same cases and time', async () => {
    const adkText = readFileSync(join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json'), 'utf8');
    const adk = loadEvalSetResult(adkText);
    const root = freshDir();
    const m = evalSetsManager(fsStore(root), { now: () => adk.creation_timestamp });
    const saved = await m.saveEvalSetResult('hello_world', 'hello_world', adk.eval_case_results);
    assert.equal(saved.eval_set_result_id, adk.eval_set_result_id);
    const path = join(root, 'hello_world', '.adk', 'eval_history', `${adk.eval_set_result_name}.evalset_result.json`);
    assert.equal(readFileSync(path, 'utf8'), adkText);
    assert.deepEqual(await m.getEvalSetResult('hello_world', adk.eval_set_result_id), adk);
  });

  test('the operations of store_ops.json leave the files google-adk 2.13\'s own managers left', async () => {
    // tools/adk-results/make_store_fixture.py ran the same operations through ADK's
    // LocalEvalSetsManager and LocalEvalSetResultsManager with the same clock readings.
    const dir = join(ROOT, 'tools', 'adk-results');
    const spec = JSON.parse(readFileSync(join(dir, 'store_ops.json'), 'utf8'));
    const adk = JSON.parse(readFileSync(join(dir, 'store_ops.adk-2.13.json'), 'utf8')).files;
    const root = freshDir();
    let tick = 0;
    const m = evalSetsManager(fsStore(root), { now: () => spec.times[tick++] });
    for (const [op, app, setId, arg] of spec.ops) {
      if (op === 'create') await m.createEvalSet(app, setId);
      else if (op === 'add') await m.addEvalCase(app, setId, arg);
      else if (op === 'update') await m.updateEvalCase(app, setId, arg);
      else if (op === 'delete') await m.deleteEvalCase(app, setId, arg);
      else if (op === 'save') await m.saveEvalSetResult(app, setId, arg);
      else assert.fail(`unknown operation ${op}`);
    }
    const ours = {};
    const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) (e.isDirectory() ? walk(join(d, e.name)) : ours[relative(root, join(d, e.name)).split('\\').join('/')] = readFileSync(join(d, e.name), 'utf8')); };
    walk(root);
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(adk).sort());
    for (const [path, text] of Object.entries(adk)) assert.equal(ours[path], text, path);
  });

  test('results ADK wrote (2.x plain, 1.x double-encoded) are listed and read', async () => {
    const root = freshDir();
    const dir = join(root, 'app', '.adk', 'eval_history');
    mkdirSync(dir, { recursive: true });
    const adkText = readFileSync(join(ROOT, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json'), 'utf8');
    writeFileSync(join(dir, 'two.evalset_result.json'), adkText);
    writeFileSync(join(dir, 'one.evalset_result.json'), JSON.stringify(adkText));
    writeFileSync(join(dir, 'notes.txt'), 'not a result');
    const m = evalSetsManager(fsStore(root));
    assert.deepEqual(await m.listEvalSetResults('app'), ['one', 'two']);
    assert.deepEqual(await m.getEvalSetResult('app', 'one'), await m.getEvalSetResult('app', 'two'));
  });

  const corpus = join(SHARED, 'corpus', 'adk-real');
  const files = [];
  if (existsSync(corpus)) {
    const walk = (d) => {
      for (const name of readdirSync(d).sort()) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(test|evalset)\.json$/.test(name)) files.push(p);
      }
    };
    walk(corpus);
  }
  test('the ADK corpus round-trips through fsStore (each file as <app>/<id>.evalset.json)', { skip: files.length === 0 ? `no corpus at ${corpus}` : false }, async () => {
    const root = freshDir();
    const m = evalSetsManager(fsStore(root));
    let rewritten = 0;
    for (const [i, file] of files.entries()) {
      const app = `app${i}`;
      const id = idFromFileName(file).replace(/[^A-Za-z0-9_]/g, '_');
      mkdirSync(join(root, app), { recursive: true });
      cpSync(file, join(root, app, `${id}.evalset.json`));
      const direct = readEvalSetFile(join(root, app, `${id}.evalset.json`)).evalSet;
      const got = await m.getEvalSet(app, id);
      assert.deepEqual(got, direct, file);
      assert.deepEqual(await m.listEvalSets(app), [id], file);
      if (got.eval_cases.length === 0) continue;
      // Updating a case with itself rewrites the file in ADK's current schema: same data back.
      const first = got.eval_cases[0];
      await m.updateEvalCase(app, id, first);
      const again = await m.getEvalSet(app, id);
      assert.deepEqual(again, got, file);
      assert.deepEqual(loadEvalSet(readFileSync(join(root, app, `${id}.evalset.json`))), again, file);
      rewritten++;
    }
    assert.ok(rewritten > 0);
    console.log(`# ${files.length} corpus files read through fsStore, ${rewritten} rewritten and read back`);
  });
});
