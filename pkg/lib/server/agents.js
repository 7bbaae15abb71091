//! The agents a server may run, by name, from its own configuration: a function, or an HTTP
//! agent (a URL the server posts each turn to). A client names one; it never gives a URL.
import { EvalError } from '../errors.js';
import { getLimits } from '../wasm/api.js';
import { readCapped } from './http.js';

/**
 * An Agent that POSTs each turn (`{evalId, run, turnIndex, sessionId, userId, appName, state,
 * text, userContent, history}`) as JSON to `url` and takes the JSON answer as the agent's reply
 * (a string, `{finalResponse, toolCalls}` or `{events}`, as `evaluate` reads an agent's reply).
 * The answer may be at most the core's maxReplyBytes. Errors name the agent, never its URL.
 */
export function httpAgent(name, url, { headers, fetch: fetchFn } = {}) {
  const send = fetchFn ?? globalThis.fetch;
  return async (turn) => {
    const { signal, ...rest } = turn;
    const res = await send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(rest),
      signal,
    });
    if (!res.ok) {
      res.body?.cancel().catch(() => {});
      throw new Error(`agent "${name}" answered HTTP ${res.status}`);
    }
    const max = getLimits().maxReplyBytes;
    const bytes = await readCapped(res.body, res.headers.get('content-length'), max, `agent "${name}"'s answer`);
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new Error(`agent "${name}" answered with a body that is not JSON`);
    }
  };
}

/** `{name: Agent}` from createHandler's `agents` option (functions or `{url, headers?, fetch?}`). */
export function agentsOf(given) {
  const out = new Map();
  if (given === undefined || given === null) return out;
  if (typeof given !== 'object') throw new EvalError('config', 'agents', 'createHandler: agents must map names to agents');
  for (const [name, a] of Object.entries(given)) {
    if (typeof a === 'function') out.set(name, a);
    else if (a && typeof a === 'object' && typeof a.url === 'string' && /^https?:\/\//.test(a.url)) {
      out.set(name, httpAgent(name, a.url, a));
    } else {
      throw new EvalError('config', `agents.${name}`, `createHandler: agent "${name}" must be a function or {url: "http(s)://..."}`);
    }
  }
  return out;
}
