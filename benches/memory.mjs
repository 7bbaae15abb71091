// Peak wasm memory (issue 11, item 4): each workload runs in a fresh Node process, and the
// instance's linear memory is read after it (wasm memory only grows, so its size after a call is
// the peak of that call). Prints a table and, with --json, the figures.
//
//   node benches/memory.mjs [--data benches/.data/n10000-s1234-realistic] [--json]
//
// Workloads, on the data gen_data.py wrote (the same as the speed benchmarks):
//   load        loadEvalSet of an eval set of ~25 MB (the data set's case repeated under new ids)
//   validate    validateEvalSet of the same bytes
//   full        evaluateInvocations, N invocations as objects, full result (default criteria)
//   prepared    prepareCase + evaluate, full result
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const dataDir = path.resolve(opt('data', path.join(here, '.data', 'n10000-s1234-realistic')));
const pkgEntry = path.join(root, 'pkg', 'index.js');

if (process.argv[2] === '--child') {
  const ec = await import(pkgEntry);
  const work = process.argv[3];
  const evalset = readFileSync(path.join(dataDir, 'evalset.json'));
  const actualText = readFileSync(path.join(dataDir, 'actual.json'), 'utf8');
  ec.setMemoryCeiling(Infinity); // keep the instance (and its memory) after the call, to read it
  ec.loadEvalSet('{"eval_set_id":"warm","eval_cases":[]}');
  const before = ec.coreMemory().bytes;
  let input = 0;
  if (work === 'load' || work === 'validate') {
    // ~25 MB: the one case repeated under new ids.
    const set = JSON.parse(evalset.toString('utf8'));
    const one = set.eval_cases[0];
    const copies = Math.max(1, Math.ceil(25e6 / evalset.length));
    set.eval_cases = Array.from({ length: copies }, (_, i) => ({ ...one, eval_id: `${one.eval_id}-${i}` }));
    const bytes = Buffer.from(JSON.stringify(set));
    input = bytes.length;
    if (work === 'load') ec.loadEvalSet(bytes);
    else ec.validateEvalSet(bytes);
  } else {
    const evalCase = JSON.parse(evalset.toString('utf8')).eval_cases[0];
    const actual = JSON.parse(actualText);
    input = Buffer.byteLength(JSON.stringify({ evalCase, actual }));
    if (work === 'full') {
      await ec.evaluateInvocations({ evalCase, actual });
    } else {
      const p = ec.prepareCase({ evalCase, actual });
      p.evaluate();
      p.free();
    }
  }
  console.log(JSON.stringify({ work, input, before, after: ec.coreMemory().bytes }));
  process.exit(0);
}

const rows = [];
for (const work of ['load', 'validate', 'full', 'prepared']) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', work, '--data', dataDir], {
    encoding: 'utf8', maxBuffer: 1 << 20,
  });
  rows.push(JSON.parse(out.trim().split('\n').pop()));
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const mb = (b) => `${(b / 1048576).toFixed(1)} MiB`;
  const label = {
    load: 'loadEvalSet, ~25 MB eval set',
    validate: 'validateEvalSet, same bytes',
    full: 'evaluateInvocations, objects in, full result',
    prepared: 'prepareCase + evaluate, full result',
  };
  console.log('| workload | input JSON | wasm memory after (peak) | peak / input |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${label[r.work]} | ${mb(r.input)} | ${mb(r.after)} | ${(r.after / r.input).toFixed(1)}x |`);
}
