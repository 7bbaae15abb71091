// Editing an eval set in the page: texts of user turns and expected responses, the expected
// intermediate data (tool calls) as JSON, deleting turns and cases, promoting a run's actual
// invocations to a case's expected ones; exporting as ADK JSON once validateEvalSet accepts it.
import { h, fill } from './dom.js';
import { textOf } from './model.js';

/** `content` with its text replaced (the first text part; other parts kept). */
export function withText(content, text, role) {
  const base = content && typeof content === 'object' ? structuredClone(content) : { role, parts: [] };
  const parts = Array.isArray(base.parts) ? base.parts : [];
  const i = parts.findIndex((p) => p && typeof p.text === 'string');
  if (i >= 0) {
    parts[i] = { ...parts[i], text };
    // Further text parts would be joined to the shown text: the edit replaces them all.
    base.parts = parts.filter((p, j) => j === i || !(p && typeof p.text === 'string'));
  } else {
    base.parts = [...parts, { text }];
  }
  if (!base.role) base.role = role;
  return base;
}

/** The case `evalId` of `draft` with its turns replaced by `actual` invocations (a result's). */
export function promote(draft, evalId, actual) {
  const c = draft.eval_cases.find((x) => x.eval_id === evalId);
  const turns = actual.map((inv) => {
    const { app_details: _a, duration: _d, ...rest } = structuredClone(inv);
    return rest;
  });
  if (c) {
    c.conversation = turns;
    delete c.conversation_scenario;
  } else {
    draft.eval_cases.push({ eval_id: evalId, conversation: turns });
  }
  return draft;
}

function problemList(errors) {
  return errors.map((e) => h('li', { class: 'err' }, h('code', null, e.code), e.path ? [' at ', h('code', null, e.path)] : null, `: ${e.message}`));
}

/** The editor for `file` (`{name, value, draft?}`): changes go to `file.draft`. */
export function editView(api, file) {
  if (!file.draft) file.draft = structuredClone(file.value);
  let draft = file.draft;
  const root = h('section', { class: 'editor' });
  const report = h('div', { id: 'export-report' });
  let url = null;

  function exportSet() {
    const result = api.validateEvalSet(draft);
    if (url) URL.revokeObjectURL(url);
    url = null;
    if (!result.ok) {
      fill(report, h('p', { class: 'err' }, `Not exported: validateEvalSet found ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}.`), h('ul', null, problemList(result.errors)));
      return;
    }
    url = URL.createObjectURL(new Blob([`${JSON.stringify(draft, null, 2)}\n`], { type: 'application/json' }));
    const name = `${String(draft.eval_set_id || 'eval_set').replace(/[^\w.-]+/g, '_')}.evalset.json`;
    const link = h('a', { href: url, download: name, id: 'download-evalset' }, `Download ${name}`);
    fill(report, h('p', null, 'validateEvalSet accepts it. ', link));
    link.click();
  }

  function draw() {
    fill(root,
      h('h2', null, `Edit eval set ${draft.eval_set_id}`),
      h('p', { class: 'muted' }, `From ${file.name}. Edits stay in this page until you export.`),
      h('div', { class: 'filters' },
        (() => { const b = h('button', { type: 'button', id: 'export-evalset' }, 'Validate and export as ADK JSON'); b.addEventListener('click', exportSet); return b; })(),
        (() => { const b = h('button', { type: 'button' }, 'Discard edits'); b.addEventListener('click', () => { file.draft = structuredClone(file.value); draft = file.draft; fill(report); draw(); }); return b; })()),
      report,
      draft.eval_cases.map((c, ci) => caseEditor(c, ci)));
  }

  function caseEditor(c, ci) {
    const del = h('button', { type: 'button', class: 'danger', 'aria-label': `delete case ${c.eval_id}` }, 'Delete case');
    del.addEventListener('click', () => { draft.eval_cases.splice(ci, 1); draw(); });
    const turns = Array.isArray(c.conversation) ? c.conversation : null;
    return h('details', { class: 'edit-case', open: draft.eval_cases.length <= 5 },
      h('summary', null, h('strong', null, String(c.eval_id)), turns ? ` — ${turns.length} turn${turns.length === 1 ? '' : 's'}` : ' — conversation scenario (texts not editable here)'),
      del,
      turns ? turns.map((inv, ti) => turnEditor(c, inv, ti)) : null);
  }

  function turnEditor(c, inv, ti) {
    const user = h('textarea', { rows: 2, 'aria-label': `${c.eval_id} turn ${ti + 1} user`, spellcheck: 'false' });
    user.value = textOf(inv.user_content);
    user.addEventListener('input', () => { inv.user_content = withText(inv.user_content, user.value, 'user'); });
    const resp = h('textarea', { rows: 2, 'aria-label': `${c.eval_id} turn ${ti + 1} expected response`, spellcheck: 'false' });
    resp.value = textOf(inv.final_response);
    resp.addEventListener('input', () => { inv.final_response = withText(inv.final_response, resp.value, 'model'); });
    const data = h('textarea', { rows: 4, class: 'json', 'aria-label': `${c.eval_id} turn ${ti + 1} intermediate data`, spellcheck: 'false' });
    data.value = JSON.stringify(inv.intermediate_data ?? null, null, 1);
    const dataErr = h('span', { class: 'err' });
    data.addEventListener('input', () => {
      try {
        inv.intermediate_data = JSON.parse(data.value);
        dataErr.textContent = '';
      } catch (e) {
        dataErr.textContent = `not JSON: ${e.message}`;
      }
    });
    const del = h('button', { type: 'button', 'aria-label': `delete turn ${ti + 1} of ${c.eval_id}` }, 'Delete turn');
    del.addEventListener('click', () => { c.conversation.splice(ti, 1); draw(); });
    return h('div', { class: 'edit-turn' }, h('h4', null, `Turn ${ti + 1}`), del,
      h('label', null, 'User', user), h('label', null, 'Expected response', resp),
      h('label', null, 'Expected intermediate data (tool calls) as JSON', data), dataErr);
  }

  draw();
  return root;
}
