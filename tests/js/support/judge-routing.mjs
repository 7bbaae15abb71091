// The routing rule of shared/judge_oracles.md ("Routing rule"), pure: which scripted answer a
// judge request's text asks for, and the per-key first-in-first-out script with its accounting.
// No I/O here; judge-server.mjs puts it behind HTTP.

const MARKER_RE = /^\[inv-([0-9a-f]+)\]$/;
const FINAL_METRICS = ['final_response_match_v2', 'hallucinations_v1'];

/** `[inv-X]` -> `[q-X]` (the invocation's question tag). */
export function questionTag(marker) {
  const m = MARKER_RE.exec(marker);
  if (!m) throw new Error(`not a marker: ${marker}`);
  return `[q-${m[1]}]`;
}

export const isRubricMetric = (name) => name.startsWith('rubric_based_');

/** Rubric ids of a metric's criterion (`rubric_id` or `rubricId` of each `rubrics` entry). */
export function criterionRubricIds(config, metric) {
  const criterion = config?.criteria?.[metric];
  const rubrics = criterion !== null && typeof criterion === 'object' ? criterion.rubrics : undefined;
  if (!Array.isArray(rubrics)) return [];
  return rubrics.map((r) => r?.rubric_id ?? r?.rubricId).filter((id) => typeof id === 'string' && id !== '');
}

/** The parts of a line the rule looks at: markers, rubric ids per rubric metric, the one final metric. */
export function routingTable(row) {
  const script = row.script ?? {};
  const metrics = Object.keys(script);
  const markers = [...new Set(metrics.flatMap((m) => Object.keys(script[m] ?? {})))];
  const rubricIds = {};
  for (const m of metrics) if (isRubricMetric(m)) rubricIds[m] = criterionRubricIds(row.config, m);
  const finals = metrics.filter((m) => FINAL_METRICS.includes(m));
  return { markers, rubricIds, finals };
}

/**
 * Applies steps 2-4 of the rule to a request text. Returns
 * `{ metric, marker, kind, missingRubricIds }` or `{ error }` (a request ADK would not make).
 * `missingRubricIds` lists the routed rubric metric's ids the text lacks (ADK's rubric prompt
 * lists every one; the rule itself routes on any).
 */
export function routeText(table, text) {
  const found = table.markers.filter((mk) => text.includes(mk));
  if (found.length === 0) return { error: 'no marker of this line in the request' };
  if (found.length > 1) return { error: `more than one marker in the request: ${found.join(' ')}` };
  const marker = found[0];
  const rubricHits = Object.entries(table.rubricIds)
    .filter(([, ids]) => ids.some((id) => text.includes(id)))
    .map(([m]) => m);
  if (rubricHits.length > 1) return { error: `rubric ids of two metrics in the request: ${rubricHits.join(', ')}` };
  if (rubricHits.length === 1) {
    const metric = rubricHits[0];
    const missingRubricIds = table.rubricIds[metric].filter((id) => !text.includes(id));
    return { metric, marker, kind: 'judge', missingRubricIds };
  }
  if (table.finals.length === 0) return { error: 'no rubric id in the request and the line has no final_response_match_v2 or hallucinations_v1' };
  if (table.finals.length > 1) return { error: `the line has both ${table.finals.join(' and ')} (not routable)` };
  const metric = table.finals[0];
  if (metric === 'final_response_match_v2') return { metric, marker, kind: 'judge', missingRubricIds: [] };
  const kind = text.includes(questionTag(marker)) ? 'validator' : 'segmenter';
  return { metric, marker, kind, missingRubricIds: [] };
}

const keyOf = (metric, marker, kind) => `${metric} ${marker} ${kind}`;
const isFailure = (entry) => entry !== null && typeof entry === 'object' && 'error' in entry;

/**
 * One loaded line: routes texts, serves each key's answers in order, keeps the accounting.
 * `take(text, n)` -> `{ route, answers }` (strings), `{ route, failure }` (a scripted error,
 * entries used up), `{ route, exhausted }` or `{ error }` (unroutable).
 */
export class OracleScript {
  constructor(row) {
    this.row = row;
    this.table = routingTable(row);
    this.keys = new Map();
    for (const [metric, byMarker] of Object.entries(row.script ?? {})) {
      for (const [marker, byKind] of Object.entries(byMarker ?? {})) {
        for (const [kind, entries] of Object.entries(byKind ?? {})) {
          this.keys.set(keyOf(metric, marker, kind), { metric, marker, kind, entries, asked: 0 });
        }
      }
    }
    this.requests = 0;
    this.routed = 0;
    this.unroutable = [];
    this.invalid = [];
    this.anomalies = [];
  }

  /** Records a request a real provider would reject before any routing (bad body, headers). */
  rejectInvalid(reason, where) {
    this.requests++;
    this.invalid.push({ reason, ...where });
  }

  take(text, n = 1, where = {}) {
    this.requests++;
    const route = routeText(this.table, text);
    if (route.error) {
      this.unroutable.push({ reason: route.error, ...where, excerpt: excerpt(text) });
      return { error: route.error };
    }
    this.routed++;
    if (route.missingRubricIds.length > 0) {
      this.anomalies.push(`${route.metric} ${route.marker}: rubric request without rubric id(s) ${route.missingRubricIds.join(', ')}`);
    }
    if (route.kind === 'judge' && !text.includes(questionTag(route.marker))) {
      this.anomalies.push(`${route.metric} ${route.marker}: judge request without the user prompt (no ${questionTag(route.marker)})`);
    }
    const key = this.keys.get(keyOf(route.metric, route.marker, route.kind));
    const entries = key?.entries ?? [];
    const start = key ? key.asked : 0;
    if (key) key.asked += n;
    else {
      // A key absent from the script: ADK made no such call (e.g. a validator after no sentences).
      this.keys.set(keyOf(route.metric, route.marker, route.kind),
        { metric: route.metric, marker: route.marker, kind: route.kind, entries: [], asked: n });
    }
    const slice = entries.slice(start, start + n);
    if (slice.length < n) return { route, exhausted: true, index: start };
    const failure = slice.find(isFailure);
    if (failure) return { route, failure: String(failure.error), index: start };
    return { route, answers: slice, index: start };
  }

  /**
   * The accounting of shared/judge_oracles.md ("Checking an implementation"): unroutable
   * requests and over-asked keys fail the line; so do answers never asked for, except in a
   * `judge` key whose script holds a failure (an implementation may stop sampling an
   * invocation once one sample failed). Also counted as failures: requests a provider would
   * reject, and anomalies against the rule's stated requirements (a rubric request missing a
   * rubric id, a judge request without its user prompt).
   */
  report() {
    const overAsked = [];
    const neverAsked = [];
    const calls = {};
    for (const [k, key] of this.keys) {
      calls[k] = { scripted: key.entries.length, asked: key.asked };
      if (key.asked > key.entries.length) {
        overAsked.push({ metric: key.metric, marker: key.marker, kind: key.kind, scripted: key.entries.length, asked: key.asked });
      } else if (key.asked < key.entries.length) {
        const excused = key.kind === 'judge' && key.entries.some(isFailure);
        if (!excused) {
          neverAsked.push({ metric: key.metric, marker: key.marker, kind: key.kind, scripted: key.entries.length, asked: key.asked });
        }
      }
    }
    const problems = [
      ...this.invalid.map((u) => `invalid request (${u.wire ?? '?'} ${u.path ?? ''}): ${u.reason}`),
      ...this.unroutable.map((u) => `unroutable request (${u.wire ?? '?'} ${u.path ?? ''}): ${u.reason}; text ${JSON.stringify(u.excerpt)}`),
      ...overAsked.map((o) => `over-asked: ${o.metric} ${o.marker} ${o.kind}: ${o.asked} calls, ADK made ${o.scripted}`),
      ...neverAsked.map((o) => `never asked: ${o.metric} ${o.marker} ${o.kind}: ${o.asked} of ADK's ${o.scripted} calls made`),
      ...this.anomalies,
    ];
    return {
      requests: this.requests,
      routed: this.routed,
      unroutable: this.unroutable,
      invalid: this.invalid,
      overAsked,
      neverAsked,
      anomalies: this.anomalies,
      calls,
      ok: problems.length === 0,
      problems,
    };
  }
}

function excerpt(text) {
  return text.length <= 160 ? text : `${text.slice(0, 100)} … ${text.slice(-50)}`;
}
