// OpenTelemetry trace files in the viewer: read by the package's trace import (its own wasm
// module, loaded with this file), each recorded session shown turn by turn (user, what the agent
// said and called in order, final response) with each invocation's spans as a timeline: model,
// tool and the framework's time in between, as the duration split counts them. A session set becomes an eval set to edit.
import { h, s, fill, fmt, longText } from './dom.js';
import { textOf, stepsOf } from './model.js';

const W = 900, ROW = 16, LABEL = 260;

/** A trace file as an entry of the page's files: `{name, kind: 'traces', value, bytes}`. */
export async function tracesEntry(api, name, bytes) {
  await api.initExtras();
  return { name, kind: 'traces', value: api.loadTraces(bytes, { timeline: true }), bytes };
}

/** The depth of each span (its parents up to the invocation's span). */
function depths(spans) {
  const out = new Array(spans.length).fill(0);
  spans.forEach((sp, i) => {
    let d = 0;
    for (let p = sp.parent, guard = 0; p !== undefined && guard < spans.length; p = spans[p]?.parent, guard++) d++;
    out[i] = d;
  });
  return out;
}

/**
 * An invocation's spans as rows of bars over its time: each span's name indented by its depth,
 * its bar coloured by the kind of work (model, tool, agent, invocation, other), times in titles.
 */
export function timeline(spans, label) {
  const end = Math.max(1e-3, ...spans.map((x) => x.end_ms));
  const d = depths(spans);
  const x = (ms) => LABEL + (ms / end) * (W - LABEL - 8);
  const rows = spans.map((sp, i) => {
    const y = i * ROW;
    const title = `${sp.name} (${sp.kind}${sp.detail ? `: ${sp.detail}` : ''}${sp.agent ? `, agent ${sp.agent}` : ''}): ${fmt(sp.start_ms, 1)}–${fmt(sp.end_ms, 1)} ms, ${fmt(sp.end_ms - sp.start_ms, 1)} ms${sp.error ? ', ERROR' : ''}`;
    return s('g', { class: `span k-${sp.kind}${sp.error ? ' err' : ''}`, role: 'listitem', 'aria-label': title },
      s('title', null, title),
      s('text', { class: 'name', x: 4 + Math.min(d[i], 12) * 10, y: y + 12 }, sp.name.length > 34 ? `${sp.name.slice(0, 33)}…` : sp.name),
      s('rect', { x: x(sp.start_ms), y: y + 3, width: Math.max(1, x(sp.end_ms) - x(sp.start_ms)), height: ROW - 6, rx: 2 }));
  });
  const height = spans.length * ROW + 18;
  const axis = s('g', { class: 'axis' },
    s('line', { x1: LABEL, x2: W - 8, y1: height - 16, y2: height - 16 }),
    s('text', { x: LABEL, y: height - 4, 'text-anchor': 'start' }, '0 ms'),
    s('text', { x: W - 8, y: height - 4, 'text-anchor': 'end' }, `${fmt(end, 1)} ms`));
  return s('svg', { class: 'timeline', viewBox: `0 0 ${W} ${height}`, width: W, height, role: 'list', 'aria-label': label }, rows, axis);
}

/** The model / tool / framework split of an invocation's duration (the core's, from the spans). */
function split(inv) {
  if (typeof inv.duration !== 'number') return null;
  const model = inv.model_duration ?? 0, tool = inv.tool_duration ?? 0;
  const framework = Math.max(0, inv.duration - model - tool);
  return h('div', { class: 'split' },
    h('span', { class: 'k-model' }, `model ${fmt(model, 3)} s`), ' · ', h('span', { class: 'k-tool' }, `tool ${fmt(tool, 3)} s`), ' · ',
    h('span', { class: 'k-other' }, `framework ${fmt(framework, 3)} s`), h('span', { class: 'muted' }, ` of ${fmt(inv.duration, 3)} s`));
}

/** What the agent said and called, in order (the final response is shown apart). */
function steps(inv) {
  const list = stepsOf(inv);
  if (!list.length) return null;
  const who = (st) => (st.author ? h('span', { class: 'author' }, `${st.author} `) : null);
  return h('ol', { class: 'steps' }, list.map((st) => (st.kind === 'said'
    ? h('li', { class: 'said' }, who(st), h('strong', null, 'said: '), longText(st.text, 2000))
    : h('li', { class: 'call' }, who(st), h('code', null, st.name), ' ', h('span', { class: 'json' }, JSON.stringify(st.args))))));
}

function invocationView(session, inv, k) {
  const spans = session.timelines?.[k] ?? [];
  const missing = (session.missing ?? []).filter((m) => m.invocation === k);
  return h('section', { class: 'invocation', dataset: { invocation: k } },
    h('h4', null, `Turn ${k + 1}`, h('span', { class: 'muted' }, ` — ${inv.invocation_id}`)),
    h('div', { class: 'turn' }, h('strong', null, 'User: '), longText(textOf(inv.user_content))),
    steps(inv),
    h('div', { class: 'turn' }, h('strong', null, 'Final response: '), longText(textOf(inv.final_response))),
    missing.map((m) => h('div', { class: 'warn' }, `${m.field} not recorded: ${m.reason}`)),
    split(inv),
    spans.length ? timeline(spans, `spans of turn ${k + 1}`) : h('p', { class: 'muted' }, 'No spans.'));
}

function sessionView(session) {
  const who = [session.app_name ? `app ${session.app_name}` : null, session.user_id ? `user ${session.user_id}` : null, `from ${session.source}`].filter(Boolean).join(', ');
  return h('details', { class: 'session', open: true, dataset: { session: session.session_id } },
    h('summary', null, h('strong', null, session.session_id), h('span', { class: 'muted' }, ` — ${session.invocations.length} turn${session.invocations.length === 1 ? '' : 's'}, ${who}`)),
    session.invocations.map((inv, k) => invocationView(session, inv, k)));
}

/**
 * The Traces view: every trace file's sessions, its warnings, and a button that makes the file's
 * sessions an eval set (`onEvalSet(name, evalSet)`: the page adds it to its files to edit).
 */
export function tracesView(api, files, onEvalSet) {
  if (!files.length) {
    return h('section', null, h('h2', null, 'Traces'), h('p', null, 'Open OpenTelemetry trace files (OTLP/JSON as an exporter sends it, JSON lines as the collector writes them, or protobuf) to see each recorded session and its spans.'));
  }
  return h('div', { id: 'traces' }, h('h2', null, 'Traces'), files.map((f) => {
    const make = h('button', { type: 'button', class: 'make-evalset' }, 'Make an eval set of these sessions');
    const status = h('span', { class: 'muted' });
    make.addEventListener('click', () => {
      try {
        const id = f.name.replace(/^.*\//, '').replace(/\..*$/, '').replace(/[^A-Za-z0-9_]+/g, '_') || 'traces';
        onEvalSet(`${id}.evalset.json`, api.tracesToEvalSet(f.bytes, { evalSetId: id }).evalSet);
      } catch (e) {
        fill(status, `${e.code ?? 'error'}: ${e.message}`);
      }
    });
    return h('section', { class: 'trace-file', dataset: { file: f.name } },
      h('h3', null, f.name), h('div', { class: 'filters' }, make, status),
      f.value.warnings.length ? h('details', { class: 'warn' }, h('summary', null, `${f.value.warnings.length} warning${f.value.warnings.length === 1 ? '' : 's'}`),
        h('ul', null, f.value.warnings.slice(0, 200).map((w) => h('li', null, h('code', null, w.code), w.path ? [' at ', h('code', null, w.path)] : null, `: ${w.message}`)))) : null,
      f.value.sessions.slice(0, 200).map(sessionView),
      f.value.sessions.length > 200 ? h('p', { class: 'muted' }, `… and ${f.value.sessions.length - 200} more sessions`) : null);
  }));
}
