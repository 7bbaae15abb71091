//! The request log every server writes: one entry per request (method, path, status, ms, code),
//! its path shown without the query string and without any secret the server knows, control
//! characters escaped, and a client that left before its answer logged as 499 `client_closed`
//! rather than as the server's own failure.

/** The status a request gets in the log when its client went away before the answer (nginx's). */
export const CLIENT_CLOSED = 499;

/** Longest path a log line shows. */
const MAX_PATH_CHARS = 300;

const escapeControls = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * A request target (`/path?query`, or a URL) as a log shows it: decoded, each known secret
 * replaced (`redact`, also in its %-encoded form), control characters escaped, the query
 * string reduced to `?[redacted]` (tokens and keys travel there), cut to 300 characters.
 */
export function loggedPath(target, redact) {
  let text = typeof target === 'string' ? target : `${target.pathname}${target.search}`;
  // An absolute form (`GET http://host/path`) shows its path only.
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(text);
  if (abs) text = text.slice(abs[0].length) || '/';
  const q = text.search(/[?#]/);
  const query = q >= 0;
  let path = query ? text.slice(0, q) : text;
  path = redact(path);
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape is logged as it came.
  }
  path = escapeControls(redact(path));
  if (path.length > MAX_PATH_CHARS) path = `${path.slice(0, MAX_PATH_CHARS)}...`;
  return query ? `${path}?[redacted]` : path;
}

/** A text for a log (a message, a line another library logs) with known secrets and query strings out. */
export function loggedText(text, redact) {
  // A request line or URL inside the text keeps its path, not its query.
  return escapeControls(redact(String(text)).replace(/(\s|^|https?:\/\/[^\s/]*)(\/[^\s?#]*)\?[^\s#]*/g, '$1$2?[redacted]'));
}

/**
 * The log of one server: `log(entry)` (`{method, path, status, ms, code?}`) or null for none.
 * `start(method, target)` gives the request's entry: `end(status, code?)` writes it once;
 * `defer()` leaves the writing to whoever ends the answer later (a stream).
 */
export function requestLog(log, redact) {
  const none = { defer() {}, deferred: false, end() {} };
  return (method, target) => {
    if (log === null) return none;
    const t0 = Date.now();
    let done = false;
    const entry = {
      deferred: false,
      defer() {
        entry.deferred = true;
      },
      end(status, code) {
        if (done) return;
        done = true;
        try {
          log({ method, path: loggedPath(target, redact), status, ms: Date.now() - t0, ...(code === undefined ? {} : { code }) });
        } catch {
          // A failing logger never fails the request.
        }
      },
    };
    return entry;
  };
}
