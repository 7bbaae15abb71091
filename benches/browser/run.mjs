// Runs the benchmark page (page.mjs) in Debian's Chromium through playwright-core, on the data
// gen_data.py wrote, and prints its times beside Node's (evalcore_bench.mjs's JSON) and
// google-adk's (adk_bench.py's JSON) as ratios to ADK:
//
//   node benches/browser/run.mjs --data DIR --adk DIR/adk-r3.json --node DIR/evalcore.json [--runs 7]
//
// The page is served from 127.0.0.1 by a small static server: /pkg/ (the built package),
// /data/ (the data set) and the page itself.
import { createServer } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const dataDir = path.resolve(opt('data', path.join(here, '..', '.data', 'n10000-s1234-realistic')));
const runs = Number(opt('runs', 7));
const CHROMIUM = process.env.EVALCORE_CHROMIUM || '/usr/bin/chromium';

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };
const PAGE = '<!doctype html><meta charset="utf-8"><title>evalcore bench</title><script type="module" src="/page.mjs"></script>';

function fileFor(url) {
  const p = decodeURIComponent(new URL(url, 'http://x').pathname);
  if (p === '/page.mjs') return path.join(here, 'page.mjs');
  if (p.startsWith('/pkg/')) return path.join(root, 'pkg', p.slice(5));
  if (p.startsWith('/data/')) return path.join(dataDir, path.basename(p));
  return null;
}

const server = createServer((req, res) => {
  if (req.url === '/' || req.url.startsWith('/?')) {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    return;
  }
  const file = fileFor(req.url);
  const inside = file !== null && (file.startsWith(path.join(root, 'pkg') + path.sep) || file.startsWith(dataDir + path.sep) || file === path.join(here, 'page.mjs'));
  if (!inside || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const require = createRequire(import.meta.url);
const { chromium } = require(path.join(root, '.tools', 'node_modules', 'playwright-core'));
const browser = await chromium.launch({ executablePath: CHROMIUM });
let result;
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/?runs=${runs}`);
  await page.waitForFunction(() => window.benchResult || window.benchError, null, { timeout: 600_000 });
  const error = await page.evaluate(() => window.benchError);
  if (error) throw new Error(`the benchmark page failed: ${error}`);
  result = await page.evaluate(() => window.benchResult);
} finally {
  await browser.close();
  server.close();
}

const read = (p) => (p && existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null);
const adk = read(opt('adk'));
const node = read(opt('node'));
const min = (t) => (t === undefined || t === null ? null : typeof t === 'number' ? t : t.min);
// Sums of ADK's parts take their medians, as compare.mjs does.
const sum = (...ks) => (ks.some((k) => !adk?.times?.[k]) ? null : ks.reduce((a, k) => a + adk.times[k].median, 0));
const fmt = (s) => (s === null ? 'n/a' : s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(1)} ms` : `${(s * 1e6).toFixed(0)} µs`);
const ratio = (a, e) => (a === null || e === null || !e ? 'n/a' : `${(a / e).toFixed(a / e >= 100 ? 0 : 1)}x`);
const adkT = (k) => min(adk?.times?.[k]);
const rows = [
  ['response_match_score (metric alone)', adkT('rouge'), 'rouge', 200],
  ['  only the pairs whose texts differ', adkT('rouge_differing'), 'rouge_differing', null],
  ['tool_trajectory_avg_score EXACT (metric alone)', adkT('traj_exact'), 'traj_exact', 20],
  ['EXACT with per-invocation results + invocations', adkT('traj_exact'), 'traj_exact_rows_plain', 50],
  ['parse + validate eval set (bytes)', adkT('parse_evalset'), 'validate_evalset_bytes', 50],
  ['prepareCase: parse case + actual', sum('parse_evalset', 'parse_actual'), 'prepare_case', null],
  ['end to end (objects in, full result out)', sum('parse_evalset', 'parse_actual', 'rouge', 'traj_exact'), 'e2e_objects_full_result', 100],
];
console.log(`\nChromium (${result.userAgent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? 'chromium'}) beside Node, N = ${result.n}; best of ${runs} runs`);
console.log('| measurement | google-adk 2.13 | Node | Chromium | ratio Node | ratio Chromium | target |');
console.log('|---|---|---|---|---|---|---|');
for (const [label, a, key, target] of rows) {
  const n = min(node?.times?.[key]);
  const c = result.times[key];
  console.log(`| ${label} | ${fmt(a)} | ${fmt(n)} | ${fmt(c)} | ${ratio(a, n)} | ${ratio(a, c)} | ${target ? `>= ${target}x` : '(info)'} |`);
}
// The same scores as ADK's, or the page measured something else.
const same = (a, b) => a === undefined || b === undefined || a === b;
if (!same(adk?.scores?.rouge, result.scores.rouge) || !same(adk?.scores?.rouge_differing, result.scores.rouge_differing) || !same(adk?.scores?.traj_exact, result.scores.traj_exact) || !same(adk?.scores?.rouge, result.scores.e2e_rouge)) {
  console.error(`scores differ from google-adk's: ${JSON.stringify(result.scores)} vs ${JSON.stringify(adk?.scores)}`);
  process.exit(1);
}
console.log(`scores equal google-adk's: rouge ${result.scores.rouge}, trajectory ${result.scores.traj_exact}`);
