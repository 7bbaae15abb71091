//! Who may use a server: the `Host` a request names (DNS rebinding), the `Origin` of a request
//! that changes something (cross-site forms and `text/plain` fetches), and the type of a JSON
//! body. Pure rules over a method and a header getter, shared by every server evalcore runs (the
//! fetch handler, `evalcore web`'s express app, `evalcore view`); docs/security.md says why.
import { EvalError } from '../errors.js';

/** The names every local server answers to, whatever else is allowed. */
export const LOOPBACK_HOSTS = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

/** Methods that only read: their Origin is not checked (a foreign page cannot read the answer). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** At most this much of a client's header is quoted back in a message. */
const QUOTE_CHARS = 80;

/** An answer refusing a request: `{status, code, message}`. */
export class Refusal {
  constructor(status, code, message) {
    this.status = status;
    this.code = code;
    this.message = message;
  }
}

const quote = (v) => JSON.stringify(v.length > QUOTE_CHARS ? `${v.slice(0, QUOTE_CHARS)}...` : v);

/**
 * The host name of an authority (`Host` header, or the host of a URL), lower case, without its
 * port and trailing dot; IPv6 addresses in brackets (`[::1]`). Null when it is not one.
 */
export function hostName(authority) {
  if (typeof authority !== 'string') return null;
  const a = authority.trim().toLowerCase();
  let name;
  let rest;
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    if (end < 0) return null;
    name = a.slice(0, end + 1);
    rest = a.slice(end + 1);
  } else {
    const colon = a.indexOf(':');
    name = colon < 0 ? a : a.slice(0, colon);
    rest = colon < 0 ? '' : a.slice(colon);
  }
  if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
  name = name.replace(/\.$/, '');
  // Letters, digits, dots, dashes, underscores (names), colons and brackets (IPv6): nothing else
  // can be a host, so nothing else is compared.
  if (name === '' || !/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)$/.test(name)) return null;
  return name;
}

/** A configured host (`localhost`, `::1`, `[::1]`, `evals.example.com`) as hostName gives it. */
export function normalHost(given) {
  const s = String(given).trim().toLowerCase();
  if (s === '*') return '*';
  return hostName(s.includes(':') && !s.startsWith('[') ? `[${s}]` : s);
}

/**
 * The host policy: `null` (any Host: a server that cannot know its names, or `*` given), or the
 * set of names allowed. `extra` is what the user added (`--allowed_hosts`,
 * `EVALCORE_ALLOWED_HOSTS`); an entry that is not a host name throws with `what` in the message.
 */
export function hostPolicy(names, extra = [], what = 'allowed hosts') {
  const out = new Set();
  for (const n of [...names, ...extra]) {
    const h = normalHost(n);
    if (h === '*') return null;
    if (h === null) throw new EvalError('config', '', `${what}: ${quote(String(n))} is not a host name (give names like localhost, 127.0.0.1, [::1], evals.example.com, or *)`);
    out.add(h);
  }
  return out;
}

/** A comma-separated list of hosts (a flag's or a variable's value) as a list. */
export function hostList(text) {
  return String(text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * Why a request must not be answered, or null. `request` is `{method, header(name) -> string |
 * null}`; `policy` is `{hosts: Set | null, origins: string[]}` (`origins`: other origins a
 * browser may call from, the CORS list; `*` any). Rules:
 * - Host: when `hosts` is a set, the request's Host must name one of them (every method: a
 *   rebound page reads as well as writes). No Host at all is not a browser, so not rebinding.
 * - Origin: a request that is not GET/HEAD/OPTIONS and carries one must come from this server's
 *   own origin (its host and port as the Host header names them) or a listed one. A request
 *   without Origin is not from a browser page (browsers send it with every POST, PUT, DELETE),
 *   unless Sec-Fetch-Site says it crossed sites.
 */
export function refusalOf(request, policy) {
  const host = request.header('host');
  if (host !== null && policy.hosts !== null) {
    const name = host.includes(',') ? null : hostName(host);
    if (name === null || !policy.hosts.has(name)) {
      return new Refusal(403, 'host_not_allowed', `this server answers requests for ${[...policy.hosts].join(', ')}, and the Host header names ${quote(host)}: `
        + 'a page another site rebound to this address, or a proxy whose name must be allowed (--allowed_hosts, EVALCORE_ALLOWED_HOSTS)');
    }
  }
  if (SAFE_METHODS.has(request.method)) return null;
  const origin = request.header('origin');
  if (origin === null) {
    const site = request.header('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') {
      return new Refusal(403, 'origin_not_allowed', `a ${request.method} from another site (Sec-Fetch-Site: ${site}) is not answered`);
    }
    return null;
  }
  if (originAllowed(origin, host, policy)) return null;
  return new Refusal(403, 'origin_not_allowed', `a ${request.method} from the page at ${quote(origin)} is not answered: only this server's own pages`
    + `${policy.origins.length > 0 ? ` and ${policy.origins.join(', ')}` : ''} may change anything here (a cross-site form or fetch)`);
}

function originAllowed(origin, host, policy) {
  if (policy.origins.includes('*') || policy.origins.includes(origin)) return true;
  if (host === null || origin === 'null') return false;
  let url;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  // Same origin: the page's host and port are those the request was sent to. The scheme is not
  // compared: behind a TLS proxy the page is https and the request reaches us as http.
  const ownName = hostName(host);
  if (ownName === null || hostName(url.host) !== ownName || portOf(url) !== portOfHost(host, url.protocol)) return false;
  return policy.hosts === null || policy.hosts.has(ownName);
}

const DEFAULT_PORTS = { 'http:': '80', 'https:': '443' };
const portOf = (url) => url.port || DEFAULT_PORTS[url.protocol];
function portOfHost(host, protocol) {
  const m = /:(\d{1,5})$/.exec(host.trim());
  return m && !host.trim().endsWith(']') ? String(Number(m[1])) : DEFAULT_PORTS[protocol];
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType) {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Whether the request carries a body (a length above 0, or a chunked one). */
export function hasBody(request) {
  const length = request.header('content-length');
  if (length !== null && /^\s*\d+\s*$/.test(length)) return Number(length) > 0;
  return request.header('transfer-encoding') !== null;
}

/**
 * Why a JSON route refuses this body's type, or null: a request with a body must say it is
 * JSON (`types`, e.g. application/json), which no HTML form and no "simple" cross-site fetch can
 * send without the browser first asking this server (a CORS preflight it does not grant).
 */
export function bodyTypeRefusal(request, types = ['application/json']) {
  if (!hasBody(request)) return null;
  const type = mediaType(request.header('content-type'));
  if (types.includes(type) || (type.endsWith('+json') && types.includes('application/json'))) return null;
  return new Refusal(415, 'unsupported_media_type', `the request body must be sent as Content-Type: ${types.join(' or ')}${type === '' ? ' (it has none)' : `, not ${quote(type)}`}`);
}

/** A header getter over a fetch `Headers`. */
export const fetchHeaders = (request) => ({ method: request.method, header: (name) => request.headers.get(name) });

/** A header getter over a Node `IncomingMessage` (repeated headers joined with ", ", as fetch does). */
export function nodeHeaders(req) {
  return {
    method: req.method,
    header(name) {
      let out = null;
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i].toLowerCase() === name) out = out === null ? req.rawHeaders[i + 1] : `${out}, ${req.rawHeaders[i + 1]}`;
      }
      return out;
    },
  };
}
