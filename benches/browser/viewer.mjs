// The viewer opening big results in Debian's Chromium (playwright-core), served as `evalcore view`
// serves it: the time from navigation to the first row of the case table, median of `--runs`
// fresh pages, for
//   * a 5,000-case result as google-adk 2.13 writes it (tools/adk-results' real file, its cases
//     repeated with their own ids and scores: every null field written, indent 2), named as ADK
//     names it and named without "result",
//   * the browser tests' 10,000 cases x 3 invocations (tests/e2e/fixtures.mjs bigResult), by
//     URL and by the file picker (the timings tests/e2e/big.test.mjs used to assert),
//   * the empty viewer, until usable (tests/e2e/weight.test.mjs used to assert it).
//
//   node benches/browser/viewer.mjs [--runs 7] [--pkg DIR] [--against DIR] [--only adk|unnamed|big|picker|empty] [--profile]
//
// `--pkg` measures another build of the package than ./pkg (an older commit's pkg/, built in a
// `git worktree`); `--against DIR` measures a second build beside it, the two builds' opens
// alternated so both meet the same load on a shared machine, and prints their ratio;
// `--profile` prints where the main thread spent the first open of the ADK result (CDP
// Profiler, self time by function). The machine's load average is printed with the figures.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { bigResult } from '../../tests/e2e/fixtures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const opt = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : dflt;
};
const runs = Number(opt('runs', 7));
const pkg = path.resolve(opt('pkg', path.join(root, 'pkg')));
const against = opt('against', null) === null ? null : path.resolve(opt('against'));
const only = opt('only', null);
const profile = process.argv.includes('--profile');
const CHROMIUM = process.env.EVALCORE_CHROMIUM || '/usr/bin/chromium';

/** `n` cases as google-adk 2.13 writes a result file, from its own file's four cases. */
export function adkResult(n) {
  const real = JSON.parse(readFileSync(path.join(root, 'tools', 'adk-results', 'hello_world.adk-2.13.evalset_result.json'), 'utf8'));
  const cases = [];
  for (let i = 0; i < n; i++) {
    const c = structuredClone(real.eval_case_results[i % real.eval_case_results.length]);
    c.eval_id = `${c.eval_id}_${String(i).padStart(5, '0')}`;
    c.session_id = `${c.session_id}-${i}`;
    // Scores that vary, so histograms and sorts have work to do.
    for (const m of c.overall_eval_metric_results) if (m.metric_name === 'response_match_score') m.score = ((i * 7919) % 1000) / 1000;
    cases.push(c);
  }
  return JSON.stringify({ ...real, eval_case_results: cases }, null, 2);
}

const work = mkdtempSync(path.join(tmpdir(), 'evalcore-bench-viewer-'));
const files = {
  adk: path.join(work, 'adk5000.evalset_result.json'),
  // The same bytes under a name that does not say "result" (a download, a renamed copy).
  unnamed: path.join(work, 'adk5000.json'),
  big: path.join(work, 'big.evalset_result.json'),
};
writeFileSync(files.adk, adkResult(5000));
writeFileSync(files.unnamed, readFileSync(files.adk));
writeFileSync(files.big, bigResult(10_000, 3));
const mb = (f) => (readFileSync(f).length / 1e6).toFixed(1);

/** A build's `evalcore view` request handler serving `list`: `{url, close}`. */
async function serve(build, list) {
  const { handler, pageUrl } = await import(pathToFileURL(path.join(build, 'lib', 'cli', 'view.js')).href);
  const server = createServer(handler(list));
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { url: pageUrl(origin, list), close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }) };
}

// Set before the page's scripts run: when the first data row of the case table appears (ms
// since navigation start), and the viewer's own "Loaded … in N ms" (read + load + first view).
const WATCH = () => {
  const seen = () => document.querySelector('[role=table][aria-label=Cases] [role=row][aria-rowindex="2"]');
  const observer = new MutationObserver(() => {
    if (window.__firstRow === undefined && seen()) { window.__firstRow = performance.now(); observer.disconnect(); }
  });
  document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
};

const require = createRequire(import.meta.url);
const { chromium } = require(path.join(root, '.tools', 'node_modules', 'playwright-core'));
const browser = await chromium.launch({ executablePath: CHROMIUM });

/**
 * One fresh page opening `url` (or the empty viewer, then `pick` through the file picker):
 * `{firstRow, loaded, cpu}`: ms to the first row, the viewer's "Loaded in", and the CPU time
 * the page's main thread spent until the first row (Chrome's ThreadTime: what load on the
 * machine changes least).
 */
async function openOnce(url, pick = null, cdp = false) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(WATCH);
  const session = await context.newCDPSession(page);
  await session.send('Performance.enable');
  const threadTime = async () => (await session.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  const processTime = async () => (await session.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime').value;
  // A page of the same origin first, so the viewer's renderer (and its thread clock) is the one measured.
  await page.goto(new URL('/www/favicon.none', url).href);
  if (cdp) {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 200 });
    await session.send('Profiler.start');
  }
  let cpu0 = await threadTime();
  const proc0 = await processTime();
  await page.goto(url);
  let t0 = 0;
  if (pick) {
    await page.waitForSelector('body[data-ready=true]', { timeout: 600_000 });
    [t0, cpu0] = [await page.evaluate(() => performance.now()), await threadTime()];
    await page.setInputFiles('#open-files', pick);
  }
  await page.waitForFunction(() => window.__firstRow !== undefined, null, { timeout: 600_000, polling: 50 });
  const cpu = (await threadTime()) - cpu0;
  const proc = (await processTime()) - proc0;
  const { firstRow, notice } = await page.evaluate(() => ({ firstRow: window.__firstRow, notice: document.getElementById('notice').textContent }));
  const out = { firstRow: firstRow - t0, loaded: Number(/in (\d+) ms/.exec(notice)?.[1] ?? NaN), cpu: cpu * 1000, proc: proc * 1000 };
  if (cdp) out.profile = (await session.send('Profiler.stop')).profile;
  await context.close();
  return out;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Self time per function (and the total per script) of a CDP profile, the top `n`. */
function topOf(p, n = 25) {
  const self = new Map();
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const dt = new Map();
  for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  const scripts = new Map();
  for (const [id, ms] of dt) {
    const { callFrame: f } = byId.get(id);
    const file = f.url ? f.url.replace(/^https?:\/\/[^/]+/, '') : '(native)';
    const key = `${f.functionName || '(anonymous)'}  ${file}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    scripts.set(file, (scripts.get(file) ?? 0) + ms);
  }
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, ms]) => `  ${ms.toFixed(0).padStart(7)} ms  ${k}`).join('\n');
  return `self time by script:\n${rows(scripts)}\nself time by function:\n${rows(self)}`;
}

const cases = [
  { key: 'adk', label: `5,000-case google-adk 2.13 result (${mb(files.adk)} MB), by URL`, file: files.adk },
  { key: 'unnamed', label: `the same, named adk5000.json, by URL`, file: files.unnamed },
  { key: 'big', label: `10,000 cases x 3 invocations (${mb(files.big)} MB), by URL`, file: files.big },
  { key: 'picker', label: `10,000 cases x 3 invocations (${mb(files.big)} MB), by the file picker`, file: files.big, pick: true },
].filter((c) => only === null || c.key === only);

const builds = [pkg, ...(against ? [against] : [])];
const name = (b) => path.relative(root, b) || b;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`\nThe viewer in Chromium ${browser.version()}, load average ${load()} at start; median of ${runs} fresh pages`
  + `${against ? `, the two builds' opens alternated (A B, B A, …: both meet the same load)` : ''}`);
const cols = builds.map((b) => `${name(b)}: first row (min – max), "Loaded in", main-thread CPU`);
console.log(`| opening | ${cols.join(' | ')} |${against ? ' ratio (first row, CPU) |' : ''}`);
console.log(`|---|${builds.map(() => '---|').join('')}${against ? '---|' : ''}`);
const cell = (t) => `${secs(median(t.map((x) => x.firstRow)))} (${secs(Math.min(...t.map((x) => x.firstRow)))} – ${secs(Math.max(...t.map((x) => x.firstRow)))}), ${secs(median(t.map((x) => x.loaded)))}, ${secs(median(t.map((x) => x.cpu)))} (process ${secs(median(t.map((x) => x.proc)))})`;
try {
  for (const c of cases) {
    const servers = await Promise.all(builds.map((b) => serve(b, c.pick ? [] : [c.file])));
    try {
      const times = builds.map(() => []);
      for (let i = 0; i < runs; i++) {
        // A, B, then B, A: neither build always opens right after the other's page closed.
        for (const k of i % 2 ? [...builds.keys()].reverse() : builds.keys()) times[k].push(await openOnce(servers[k].url, c.pick ? c.file : null));
      }
      const ratioOf = (k) => (median(times[0].map((x) => x[k])) / median(times[1].map((x) => x[k]))).toFixed(2);
      const ratio = against ? ` ${ratioOf('firstRow')} (CPU ${ratioOf('cpu')}) |` : '';
      console.log(`| ${c.label} | ${times.map(cell).join(' | ')} |${ratio}`);
      if (profile && c.key === 'adk') {
        const { profile: p } = await openOnce(servers[0].url, null, true);
        console.log(`\nwhere the first open of the ADK result went (${name(pkg)}, main thread, CDP Profiler):\n${topOf(p)}\n`);
      }
    } finally {
      await Promise.all(servers.map((x) => x.close()));
    }
  }
  if (only === null || only === 'empty') {
    // The empty viewer: usable (module ready, first view drawn) after navigation (what
    // tests/e2e/weight.test.mjs prints).
    const servers = await Promise.all(builds.map((b) => serve(b, [])));
    try {
      const usable = builds.map(() => []);
      for (let i = 0; i < runs; i++) {
        for (const k of i % 2 ? [...builds.keys()].reverse() : builds.keys()) {
          const context = await browser.newContext();
          const page = await context.newPage();
          await page.goto(servers[k].url);
          await page.waitForSelector('body[data-loaded=true]', { timeout: 600_000 });
          usable[k].push(await page.evaluate(() => window.__viewerTimings.usable));
          await context.close();
        }
      }
      const show = (u) => `${secs(median(u))} (${secs(Math.min(...u))} – ${secs(Math.max(...u))})`;
      console.log(`| the empty viewer, usable (module ready, first view drawn) | ${usable.map(show).join(' | ')} |${against ? ` ${(median(usable[0]) / median(usable[1])).toFixed(2)} |` : ''}`);
    } finally {
      await Promise.all(servers.map((x) => x.close()));
    }
  }
  console.log(`load average ${load()} at the end`);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
