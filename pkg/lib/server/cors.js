//! The endpoint's CORS: which other origins' pages may call it (the `cors` option), the answer
//! to their preflight, and the headers their answers carry. Off by default: then a page of
//! another origin can neither read an answer nor send a JSON body (its preflight is refused).
import { EvalError } from '../errors.js';

/** The allowed origins of the `cors` option (an origin, a list of them, or "*"); null: CORS off. */
export function corsOf(given) {
  if (given === undefined || given === null || given === false) return null;
  const list = typeof given === 'string' ? [given] : given;
  if (!Array.isArray(list) || list.length === 0 || list.some((o) => typeof o !== 'string' || !(o === '*' || /^https?:\/\/[^/\s]+$/.test(o)))) {
    throw new EvalError('config', 'cors', 'createHandler: cors must be "*" or origins like "https://app.example.com"');
  }
  return list;
}

/** A browser's preflight for a route taking `methods`: answered without the token (it carries none). */
export function preflight(methods) {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-methods': methods.join(', '),
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-max-age': '600',
    },
  });
}

/** The response with CORS headers for an allowed `origin` (and `Vary: Origin` either way). */
export function withCors(response, origin, allowed) {
  const headers = new Headers(response.headers);
  headers.append('vary', 'Origin');
  if (origin !== null && (allowed.includes('*') || allowed.includes(origin))) {
    headers.set('access-control-allow-origin', allowed.includes('*') ? '*' : origin);
    headers.set('access-control-expose-headers', 'retry-after');
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
