// Opening files: which of the package's readers a file is for (result, eval set, config; each
// tried), folders dropped whole, and the same-origin files a URL names. The package reads every
// byte; this file only decides which reader to try first and collects the files.

/** A thrown value as `{code, path, message}` (the core's EvalError, or a report's error, keeps its own). */
export const errorText = (e) => (e && (e.name === 'EvalError' || (typeof e.code === 'string' && typeof e.message === 'string'))
  ? { code: e.code, path: e.path ?? '', message: e.message }
  : { code: 'error', path: '', message: String(e && e.message ? e.message : e) });

/**
 * Whether a file holds OpenTelemetry traces (opened by the trace import, loaded then): OTLP/JSON
 * or JSON lines whose first key is an OTLP request's, or protobuf bytes (not text, first byte
 * 0x0a: a resource's field). Looks at the first 4 KiB only.
 */
export function sniffTraces(name, bytes) {
  const head = bytes.subarray(0, 4096);
  const text = new TextDecoder().decode(head);
  if (/^\uFEFF?\s*\{\s*"(resourceSpans|resourceLogs|resource_spans|resource_logs)"/.test(text)) return true;
  return head[0] === 0x0a && head.some((x) => x < 0x09 || (x > 0x0d && x < 0x20)) && !/\.json$/i.test(name);
}

/**
 * Which loader to try first (every loader is still tried): the kind the file's first 4 KiB name
 * (a result's `eval_set_result_id` or `eval_case_results`, also inside ADK 1.x's double-encoded
 * text; an eval set's `eval_cases`), else the file name's. A wrong first guess is not cheap: a
 * 100 MB result read as an eval set first costs seconds before its own reader runs.
 */
function order(name, bytes) {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  if (/\\?"(eval_set_result_id|eval_case_results|evalSetResultId|evalCaseResults)\\?"\s*:/.test(head)) return ['result', 'evalset', 'config'];
  if (/^\uFEFF?\s*[[{][\s\S]*"(eval_cases|evalCases)"\s*:/.test(head)) return ['evalset', 'result', 'config'];
  return fromName(name);
}

function fromName(name) {
  const n = name.toLowerCase();
  if (n.includes('result')) return ['result', 'evalset', 'config'];
  if (/config/.test(n)) return ['config', 'result', 'evalset'];
  return ['evalset', 'result', 'config'];
}

/**
 * One file's bytes read by the package: `{name, kind: 'result'|'evalset'|'config', value,
 * warnings?}` (a config's warnings: it loaded, and they say what ADK would ignore), or
 * `{name, kind: 'error', error, excerpt}` with the error of the reader tried first (and,
 * for text that is not JSON, the line where it broke).
 */
export function readFile(api, name, bytes) {
  let first = null;
  const kinds = order(name, bytes);
  for (const kind of kinds) {
    try {
      if (kind === 'result') return { name, kind, value: api.loadEvalSetResult(bytes) };
      if (kind === 'evalset') return { name, kind, value: api.loadEvalSet(bytes) };
      const text = new TextDecoder().decode(bytes);
      // A file named as a config loads with warnings (shown as such); a guessed one counts as a
      // config only without complaint (any JSON object is a config with warnings).
      const named = fromName(name)[0] === 'config';
      const report = api.validateEvalConfig(text, { strict: !named });
      if (!report.ok) throw report.errors[0];
      return { name, kind, value: api.loadEvalConfig(text), warnings: report.warnings };
    } catch (e) {
      // A reader in the extras module that is not loaded yet: the caller loads it and asks again.
      if (e?.code === 'not_initialised') throw e;
      if (first === null) first = errorText(e);
    }
  }
  const at = first?.code === 'invalid_json' ? /\bline (\d+),? column (\d+)/.exec(first.message) : null;
  return { name, kind: 'error', error: first, excerpt: at ? excerptAt(bytes, Number(at[1]), Number(at[2])) : null };
}

const EXCERPT = 60; // characters shown on either side of where the JSON broke

/**
 * The line the core stopped reading at (`line` 1-based, `column` 1-based in bytes, as the core
 * counts them) cut to the characters around it, and where in that text to point:
 * `{line, column, text, caret}`; null when the file has no such line.
 */
export function excerptAt(bytes, line, column) {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  let end = bytes.indexOf(0x0a, start);
  if (end < 0) end = bytes.length;
  const decode = (a, b) => new TextDecoder().decode(bytes.subarray(a, b)).replace(/\r$/, '');
  const before = decode(start, Math.min(end, start + Math.max(0, column - 1)));
  const after = decode(Math.min(end, start + Math.max(0, column - 1)), end);
  const left = before.length > EXCERPT ? `…${before.slice(-EXCERPT)}` : before;
  const right = after.length > EXCERPT ? `${after.slice(0, EXCERPT)}…` : after;
  return { line, column, text: left + right, caret: left.length };
}

/** Files from a drop, folders walked (an .adk/eval_history folder dropped whole: its .json files). */
export async function droppedFiles(dt) {
  const out = [];
  const entries = [...(dt.items || [])].map((i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null)).filter(Boolean);
  if (!entries.length) return [...dt.files];
  const walk = async (entry, prefix) => {
    if (entry.isFile) {
      const file = await new Promise((res, rej) => entry.file(res, rej));
      if (!prefix || file.name.endsWith('.json')) { file.relativePath = prefix + file.name; out.push(file); }
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const e of batch) await walk(e, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}

/**
 * The names URL files are shown by: each URL's path from the folder common to all of them, so
 * `runs/base/a.json` and `runs/cand/b.json` keep `base/` and `cand/` (and `evalcore view`, which
 * serves what it was given under `/files/` by the path it was given, keeps the folders given).
 */
export function urlFileNames(urls) {
  const decode = (x) => { try { return decodeURIComponent(x); } catch { return x; } };
  const paths = urls.map((u) => u.pathname.split('/').slice(1).map(decode));
  let common = paths.length ? Math.min(...paths.map((p) => p.length - 1)) : 0;
  for (let i = 0; i < common; i++) if (paths.some((p) => p[i] !== paths[0][i])) common = i;
  return paths.map((p) => p.slice(common).join('/') || 'file');
}

/**
 * A fetched file as the page opens it (`name`, `arrayBuffer()`), its bytes kept in the page: a
 * `File` made of them would copy them out to the browser's blob store and back when read (for a
 * 114 MB result, half a second or more before the reading begins).
 */
const fetchedFile = (name, buffer) => ({ name, size: buffer.byteLength, arrayBuffer: async () => buffer });

/**
 * `?file=a.json&file=runs/b.json`: the files named, fetched because the URL asks, from the
 * page's own origin only. Resolves to `{files, errors: [{name, kind: 'error', error}]}` (files as fetchedFile makes them).
 */
export async function urlFiles(search, href) {
  const files = [];
  const errors = [];
  const wanted = [];
  for (const n of new URLSearchParams(search).getAll('file')) {
    let url;
    try { url = new URL(n, href); } catch { url = null; }
    if (!url || url.origin !== new URL(href).origin) {
      errors.push({ name: n, kind: 'error', error: { code: 'not_same_origin', path: '', message: 'only files from this page\'s own origin are opened from the URL' } });
      continue;
    }
    wanted.push({ n, url });
  }
  const names = urlFileNames(wanted.map((w) => w.url));
  for (const [k, { n, url }] of wanted.entries()) {
    try {
      const res = await fetch(url, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`HTTP ${res.status} for ${url.pathname}`);
      files.push(fetchedFile(names[k], await res.arrayBuffer()));
    } catch (e) {
      errors.push({ name: n, kind: 'error', error: errorText(e) });
    }
  }
  return { files, errors };
}

/** A run's URL as the endpoints give it: `<endpoint>/v1/runs/<id>` (or its `/result`). */
const RUN_PATH = /^(.*)\/v1\/runs\/(r_[0-9a-f]{24})(?:\/result)?\/?$/;

/**
 * `?run=https://evals.example.com/v1/runs/r_...`: a run kept by an evaluation endpoint, its
 * result fetched from `<endpoint>/v1/runs/<id>/result` (the endpoint must list this page's
 * origin in EVALCORE_CORS_ORIGINS, and the page's CSP connect-src must allow it: https and this
 * machine do). `tokens` maps an endpoint's origin to the bearer token typed in the page (kept in
 * memory only; a token never travels in a URL). Resolves to `{files, errors, needToken}`:
 * `needToken` lists the origins that answered 401.
 */
export async function runResults(search, tokens = new Map()) {
  const files = [];
  const errors = [];
  const needToken = [];
  for (const given of new URLSearchParams(search).getAll('run')) {
    let url;
    try { url = new URL(given); } catch { url = null; }
    const m = url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? RUN_PATH.exec(url.pathname) : null;
    if (!m) {
      errors.push({ name: given.slice(0, 200), kind: 'error', error: { code: 'not_a_run', path: '', message: 'a run is opened by its URL: https://<endpoint>/v1/runs/r_<24 hex digits>' } });
      continue;
    }
    const token = tokens.get(url.origin);
    try {
      const res = await fetch(`${url.origin}${m[1]}/v1/runs/${m[2]}/result`, {
        credentials: 'omit', headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      if (res.status === 401) {
        needToken.push(url.origin);
        continue;
      }
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        throw Object.assign(new Error(body?.error?.message ?? `HTTP ${res.status}`), { code: body?.error?.code ?? `http_${res.status}` });
      }
      files.push(fetchedFile(`${m[2]}.evalset_result.json`, await res.arrayBuffer()));
    } catch (e) {
      errors.push({ name: `${url.origin}/…/${m[2]}`, kind: 'error', error: errorText(e) });
    }
  }
  return { files, errors, needToken: [...new Set(needToken)] };
}
