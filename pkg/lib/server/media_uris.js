//! Which `file_data` URIs of a client's request the server's judge may be sent. With
//! `judge.media` on, a judge call carries each file_data part's URI, and the provider fetches it
//! with the server's key (a Gemini Files API file, a `gs://` object, an https image): a server
//! must not fetch what any client names. The server lists what it allows (`judge.mediaUris`,
//! EVALCORE_JUDGE_MEDIA_URIS; none by default) and a request naming anything else is refused
//! with the URI's JSON path before any work.
import { EvalError } from '../errors.js';
import { HttpError } from './http.js';

/** A URI as the rules compare it: lower-case scheme and authority, the path without query or fragment. */
function split(uri) {
  const m = /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(uri);
  if (!m) return null;
  const rest = m[2].split(/[?#]/)[0];
  if (!rest.startsWith('//')) return { scheme: m[1].toLowerCase(), authority: null, path: rest };
  const after = rest.slice(2);
  const end = after.indexOf('/') < 0 ? after.length : after.indexOf('/');
  return { scheme: m[1].toLowerCase(), authority: after.slice(0, end).toLowerCase(), path: after.slice(end) };
}

/**
 * One configured entry as a rule: `*` (any URI), `scheme:` (any URI of it), or
 * `scheme://authority[/path]` (that scheme and authority, paths under that path); null when it
 * is none of these.
 */
export function uriRule(entry) {
  const text = String(entry).trim();
  if (text === '*') return { any: true };
  const p = split(text);
  if (p === null || /[?#\s]/.test(text)) return null;
  if (p.authority === null) return p.path === '' ? { scheme: p.scheme } : null;
  if (p.authority === '') return null;
  return { scheme: p.scheme, authority: p.authority, path: p.path.replace(/\/+$/, '') };
}

/** The rules of a list of entries; a bad entry throws EvalError `config` naming `what`. */
export function uriRules(entries, what = 'judge.mediaUris') {
  if (!Array.isArray(entries)) throw new EvalError('config', what, `${what} must be a list of URI rules ("*", "gs:", "https://files.example.com/evals/")`);
  return entries.map((e, i) => {
    const r = uriRule(e);
    if (r === null) throw new EvalError('config', `${what}[${i}]`, `${what}[${i}] ${JSON.stringify(String(e))} is not "*", a scheme ("gs:") or a scheme with a host and path ("https://files.example.com/evals/")`);
    return r;
  });
}

/** A path read as written: no `.`/`..` segment and no backslash or escaped dot, slash or backslash. */
const plainPath = (path) => !/\\|%2e|%2f|%5c/i.test(path) && !path.split('/').some((s) => s === '.' || s === '..');

/** Whether some rule allows `uri`. */
export function uriAllowed(uri, rules) {
  if (rules.some((r) => r.any)) return true;
  if (typeof uri !== 'string' || /[\u0000-\u0020\u007f]/.test(uri)) return false;
  const p = split(uri);
  if (p === null) return false;
  return rules.some((r) => {
    if (r.scheme !== p.scheme) return false;
    if (r.authority === undefined) return true;
    if (p.authority !== r.authority) return false;
    if (r.path === '') return true;
    return plainPath(p.path) && p.path.startsWith(r.path) && (p.path.length === r.path.length || p.path[r.path.length] === '/');
  });
}

const FILE_DATA = ['file_data', 'fileData'];
const FILE_URI = ['file_uri', 'fileUri'];

/**
 * Throws a 400 `media_uri_refused` at the first file_data URI under `value` (at JSON path
 * `path`) that `rules` do not allow. Every part is looked at, wherever it is: what reaches a
 * judge is decided later, by the metric.
 */
export function checkMediaUris(value, path, rules) {
  const stack = [[value, path]];
  while (stack.length > 0) {
    const [v, at] = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`]);
      continue;
    }
    for (const k of FILE_DATA) {
      const fd = Object.hasOwn(v, k) ? v[k] : null;
      if (fd === null || typeof fd !== 'object') continue;
      for (const u of FILE_URI) {
        if (!Object.hasOwn(fd, u) || typeof fd[u] !== 'string' || uriAllowed(fd[u], rules)) continue;
        throw new HttpError(400, 'media_uri_refused', `${at}.${k}.${u}`,
          `this server's judge is not sent ${JSON.stringify(fd[u].slice(0, 200))}: its provider would fetch it with the server's key, and the server allows ${rules.length === 0 ? 'no file_data URI' : 'other URIs only'} (judge.mediaUris, EVALCORE_JUDGE_MEDIA_URIS); send the file as inline_data instead`);
      }
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) stack.push([v[keys[i]], `${at}${/^[A-Za-z_][A-Za-z0-9_]*$/.test(keys[i]) ? `.${keys[i]}` : `[${JSON.stringify(keys[i])}]`}`]);
  }
}
