// A comparison (compareRuns's object) and a calibration (calibrate's) for people and CI: text
// for the console, Markdown for a pull-request comment (the verdict first, significant metrics
// with their intervals, regressed cases with their reasons, the rest collapsed), JUnit XML with
// the numbers as properties, and GitHub Actions annotations. Nothing here computes a statistic:
// every number is the core's.
import { mdCode, mdText } from './markdown.js';
import { annotation, textLine } from './workflow.js';
import { escapeXmlAttr, escapeXmlText } from './xml.js';

const CHANGES = ['regressed', 'improved', 'not_comparable', 'added', 'removed', 'unchanged'];

/** A score or difference for people: up to 4 decimals, a real minus sign kept out (plain ASCII). */
export function num(x, digits = 4) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return 'n/a';
  const s = Number(x.toFixed(digits));
  return String(Object.is(s, -0) ? 0 : s);
}

const signed = (x) => (typeof x === 'number' && x > 0 ? `+${num(x)}` : num(x));

/** A p-value: 3 decimals, or 2 significant digits in exponent form below 0.001. */
export function pValue(p) {
  if (typeof p !== 'number' || !Number.isFinite(p)) return 'n/a';
  if (p === 0) return '0';
  return p >= 0.001 ? String(Number(p.toFixed(3))) : p.toExponential(1);
}

const interval = (ci) => `[${signed(ci[0])}, ${signed(ci[1])}]`;

/** How many cases changed each way. */
export function tally(cmp) {
  const t = Object.fromEntries(CHANGES.map((k) => [k, 0]));
  for (const c of cmp.cases) t[c.change] = (t[c.change] ?? 0) + 1;
  return t;
}

/** What `--fail_on` decides: 1 (fail) or 0. */
export function failsOn(cmp, failOn = 'regressed') {
  if (failOn === 'never') return 0;
  if (cmp.verdict === 'regressed') return 1;
  return failOn === 'regressed' && cmp.cases.some((c) => c.change === 'regressed') ? 1 : 0;
}

/** Why a case was not compared: the reasons of each side, each named with its side. */
const bothSides = (c) => [...reasons(c, 'baseline').map((r) => `baseline: ${r}`), ...reasons(c).map((r) => `candidate: ${r}`)];

/** Why a case does not pass on one side (the candidate by default): its failing metrics and its notes. */
export function reasons(c, side = 'candidate') {
  const out = [];
  for (const [name, m] of Object.entries(c.metrics ?? {})) {
    const st = m[`${side}_status`];
    if (st === 'FAILED' || st === 'NOT_EVALUATED') {
      out.push(`${name} ${num(m.baseline)} → ${num(m.candidate)}${st === 'NOT_EVALUATED' ? ' (NOT_EVALUATED)' : ''}`);
    }
  }
  for (const n of c.notes ?? []) {
    const why = [n.reason, n.error].filter(Boolean).join(': ') || (n.metric_name ? 'NOT_EVALUATED, no reason given' : 'the agent failed');
    if (n.side === side) out.push(`${n.metric_name ? `${n.metric_name}: ` : ''}${why}${c[`${side}_runs`] > 1 ? ` (run ${n.run + 1})` : ''}`);
  }
  return [...new Set(out)];
}

/** Which results were compared; `data` writes an eval set id for the report's format. */
function sideLine(cmp, data) {
  const sets = (ids) => (ids.length ? ids.map(data).join(', ') : 'none');
  const same = cmp.eval_set_ids.baseline.join() === cmp.eval_set_ids.candidate.join();
  return same
    ? `baseline: ${cmp.runs.baseline} run(s), candidate: ${cmp.runs.candidate} run(s) of eval set ${sets(cmp.eval_set_ids.baseline)}`
    : `baseline: ${cmp.runs.baseline} run(s) of ${sets(cmp.eval_set_ids.baseline)}; candidate: ${cmp.runs.candidate} run(s) of ${sets(cmp.eval_set_ids.candidate)} (the eval sets differ)`;
}

const VERDICT = { regressed: 'REGRESSED', improved: 'IMPROVED', no_significant_change: 'NO SIGNIFICANT CHANGE' };

function flipLine(pf) {
  return `pass/fail: ${pf.baseline_passed} -> ${pf.candidate_passed} of ${pf.n} case(s) on both sides passed; `
    + `${pf.b} passed only in the baseline, ${pf.c} only in the candidate (exact McNemar p = ${pValue(pf.p_value)})`;
}

/** The comparison as console text. */
export function comparisonText(cmp, { maxCases = 50 } = {}) {
  const t = tally(cmp);
  const out = [`evalcore compare: ${VERDICT[cmp.verdict] ?? cmp.verdict} (alpha ${cmp.alpha}, p-values Holm-adjusted across ${cmp.metrics.length} metric(s))`, sideLine(cmp, textLine), ''];
  if (cmp.metrics.length) {
    const rows = cmp.metrics.map((m) => [textLine(m.metric_name), String(m.n), num(m.baseline_mean), num(m.candidate_mean), signed(m.mean_delta),
      interval(m.ci95), pValue(m.p_value), pValue(m.p_adjusted), m.significant ? (m.mean_delta < 0 ? 'worse' : 'better') : '']);
    const head = ['metric', 'n', 'baseline', 'candidate', 'delta', '95% CI', 'p', 'p (Holm)', ''];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r) => r.map((x, i) => (i === 0 || i === 5 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ').trimEnd();
    out.push(line(head), ...rows.map(line), '');
  } else {
    out.push('no metric was scored on both sides', '');
  }
  out.push(flipLine(cmp.pass_fail));
  out.push(`cases: ${CHANGES.filter((k) => t[k]).map((k) => `${t[k]} ${k.replace('_', ' ')}`).join(', ') || 'none'}`);
  for (const kind of ['regressed', 'not_comparable', 'improved', 'added', 'removed']) {
    const list = cmp.cases.filter((c) => c.change === kind);
    if (!list.length) continue;
    out.push('', `${kind.replace('_', ' ')} (${list.length}):`);
    for (const c of list.slice(0, maxCases)) {
      const why = kind === 'regressed' ? reasons(c) : kind === 'not_comparable' ? bothSides(c) : [];
      out.push(`  ${textLine(c.eval_id)}  ${c.baseline_status ?? '-'} -> ${c.candidate_status ?? '-'}${why.length ? `  ${textLine(why.join('; '))}` : ''}`);
    }
    if (list.length > maxCases) out.push(`  ... ${list.length - maxCases} more`);
  }
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const STATUS_ICON = { PASSED: '✅', FAILED: '❌', NOT_EVALUATED: '⚠️' };
const status = (s) => (s ? `${STATUS_ICON[s] ?? ''} ${s}`.trim() : '—');
const ICON = { regressed: '❌', improved: '✅', no_significant_change: '➖' };

function metricTable(metrics) {
  return ['| metric | n | baseline | candidate | Δ mean | 95% CI | p | p (Holm) |', '|---|--:|--:|--:|--:|---|--:|--:|',
    ...metrics.map((m) => `| ${m.significant ? (m.mean_delta < 0 ? '🔻 ' : '🔺 ') : ''}${mdText(m.metric_name)} | ${m.n} | ${num(m.baseline_mean)} | ${num(m.candidate_mean)} | ${signed(m.mean_delta)} | ${interval(m.ci95)} | ${pValue(m.p_value)} | ${pValue(m.p_adjusted)} |`)];
}

function caseTable(list, why, max) {
  const rows = list.slice(0, max).map((c) => `| ${mdCode(c.eval_id)} | ${status(c.baseline_status)} → ${status(c.candidate_status)} | ${mdText(why(c).join('; ') || '—')} |`);
  const more = list.length > max ? [`| … ${list.length - max} more | | |`] : [];
  return ['| case | status | why |', '|---|---|---|', ...rows, ...more];
}

/**
 * A pull-request comment: the verdict, the significant metrics with their intervals, the
 * regressed cases with why, then every metric and the other changes collapsed.
 */
export function comparisonMarkdown(cmp, { title = 'evalcore compare', maxCases = 30 } = {}) {
  const t = tally(cmp);
  const verdictText = cmp.verdict.replace(/_/g, ' ');
  const out = [`### ${ICON[cmp.verdict] ?? ''} ${mdText(title)}: ${verdictText}`, '',
    `> ${sideLine(cmp, mdText)}; α = ${cmp.alpha}, p-values Holm-adjusted across ${cmp.metrics.length} metric(s).`, ''];
  const significant = cmp.metrics.filter((m) => m.significant);
  if (significant.length) out.push('**Significant changes**', '', ...metricTable(significant), '');
  else out.push(`No metric changed significantly${cmp.metrics.length ? '' : ' (no metric was scored on both sides)'}.`, '');
  const pf = cmp.pass_fail;
  out.push(`**Pass/fail:** ${pf.baseline_passed} → ${pf.candidate_passed} of ${pf.n} cases passed; ${pf.b} passed only in the baseline, ${pf.c} only in the candidate (exact McNemar p = ${pValue(pf.p_value)}${pf.p_value < cmp.alpha ? ', significant' : ''}).`, '');
  const regressed = cmp.cases.filter((c) => c.change === 'regressed');
  if (regressed.length) out.push(`**Regressed cases (${regressed.length})**`, '', ...caseTable(regressed, (c) => reasons(c), maxCases), '');
  if (cmp.metrics.length) {
    out.push(`<details><summary>All metrics (${cmp.metrics.length})</summary>`, '', ...metricTable(cmp.metrics), '', '</details>', '');
  }
  for (const kind of ['not_comparable', 'improved', 'added', 'removed']) {
    const list = cmp.cases.filter((c) => c.change === kind);
    if (!list.length) continue;
    const why = kind === 'not_comparable' ? bothSides : () => [];
    out.push(`<details><summary>${kind.replace('_', ' ')} (${list.length})</summary>`, '', ...caseTable(list, why, maxCases), '', '</details>', '');
  }
  out.push(`<sub>${CHANGES.map((k) => `${t[k]} ${k.replace('_', ' ')}`).join(' · ')}</sub>`);
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// JUnit XML

const attrs = (o) => Object.entries(o).map(([k, v]) => ` ${k}="${escapeXmlAttr(v)}"`).join('');

/**
 * JUnit XML: the numbers as `<properties>` (verdict, pass/fail, every metric's statistics), a
 * test per metric (failing on a significant drop), one for the pass/fail flips, one per case
 * (failing when it regressed, skipped when it is not comparable, added or removed).
 */
export function comparisonJUnit(cmp, { name = 'evalcore compare' } = {}) {
  const props = [['evalcore.verdict', cmp.verdict], ['evalcore.alpha', cmp.alpha]];
  for (const [k, v] of Object.entries(cmp.pass_fail)) props.push([`evalcore.pass_fail.${k}`, v]);
  for (const [k, v] of Object.entries(tally(cmp))) props.push([`evalcore.cases.${k}`, v]);
  for (const m of cmp.metrics) {
    for (const k of ['n', 'baseline_mean', 'candidate_mean', 'mean_delta', 'p_value', 'p_adjusted', 'significant']) props.push([`evalcore.metric.${m.metric_name}.${k}`, m[k]]);
    props.push([`evalcore.metric.${m.metric_name}.ci95_low`, m.ci95[0]], [`evalcore.metric.${m.metric_name}.ci95_high`, m.ci95[1]]);
  }
  const tests = [];
  for (const m of cmp.metrics) {
    const worse = m.significant && m.mean_delta < 0;
    const msg = `mean delta ${signed(m.mean_delta)}, 95% CI ${interval(m.ci95)}, p (Holm) ${pValue(m.p_adjusted)} over ${m.n} cases`;
    tests.push(`    <testcase${attrs({ classname: 'evalcore.compare.metrics', name: m.metric_name })}>${worse ? `<failure${attrs({ type: 'significant_regression', message: msg })}/>` : `<system-out>${escapeXmlText(msg)}</system-out>`}</testcase>`);
  }
  const pf = cmp.pass_fail;
  const flips = pf.p_value < cmp.alpha && pf.b > pf.c;
  tests.push(`    <testcase${attrs({ classname: 'evalcore.compare.pass_fail', name: 'pass/fail flips' })}>${flips ? `<failure${attrs({ type: 'significant_regression', message: flipLine(pf) })}/>` : `<system-out>${escapeXmlText(flipLine(pf))}</system-out>`}</testcase>`);
  for (const c of cmp.cases) {
    const head = `    <testcase${attrs({ classname: 'evalcore.compare.cases', name: c.eval_id })}>`;
    const line = `${c.baseline_status ?? 'absent'} -> ${c.candidate_status ?? 'absent'}`;
    if (c.change === 'regressed') tests.push(`${head}<failure${attrs({ type: 'regressed', message: `${line}: ${reasons(c).join('; ')}` })}/></testcase>`);
    else if (['not_comparable', 'added', 'removed'].includes(c.change)) tests.push(`${head}<skipped${attrs({ message: `${c.change.replace('_', ' ')}: ${line}` })}/></testcase>`);
    else tests.push(`${head}<system-out>${escapeXmlText(`${c.change}: ${line}`)}</system-out></testcase>`);
  }
  const failures = tests.filter((x) => x.includes('<failure')).length;
  const skipped = tests.filter((x) => x.includes('<skipped')).length;
  const suite = attrs({ name, tests: tests.length, failures, errors: 0, skipped });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name, tests: tests.length, failures, errors: 0 })}>\n  <testsuite${suite}>\n    <properties>\n${props.map(([n, v]) => `      <property${attrs({ name: n, value: v })}/>`).join('\n')}\n    </properties>\n${tests.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions annotations

/**
 * `::error` / `::warning` lines for GitHub Actions: an error for what fails the job under
 * `failOn` (the verdict, a significant drop, a regressed case), a warning for the rest worth a
 * look (regressions that do not fail it, not comparable cases).
 */
export function comparisonAnnotations(cmp, { failOn = 'regressed', maxCases = 20 } = {}) {
  const lines = [];
  const level = (fails) => (fails ? 'error' : 'warning');
  const gate = failOn !== 'never';
  for (const m of cmp.metrics.filter((x) => x.significant && x.mean_delta < 0)) {
    lines.push(annotation(level(gate), `evalcore: ${m.metric_name} dropped`, `${m.metric_name}: mean ${num(m.baseline_mean)} -> ${num(m.candidate_mean)} (delta ${signed(m.mean_delta)}, 95% CI ${interval(m.ci95)}, p (Holm) ${pValue(m.p_adjusted)}, n = ${m.n})`));
  }
  const pf = cmp.pass_fail;
  if (pf.p_value < cmp.alpha && pf.b > pf.c) lines.push(annotation(level(gate), 'evalcore: more cases fail', flipLine(pf)));
  const regressed = cmp.cases.filter((c) => c.change === 'regressed');
  for (const c of regressed.slice(0, maxCases)) {
    lines.push(annotation(level(failOn === 'regressed'), `evalcore: ${c.eval_id} regressed`, `${c.eval_id}: ${c.baseline_status} -> ${c.candidate_status}: ${reasons(c).join('; ') || 'no metric reason recorded'}`));
  }
  if (regressed.length > maxCases) lines.push(annotation(level(failOn === 'regressed'), 'evalcore: more regressed cases', `${regressed.length - maxCases} more regressed case(s); see the report`));
  const nc = cmp.cases.filter((c) => c.change === 'not_comparable').length;
  if (nc) lines.push(annotation('warning', 'evalcore: cases not comparable', `${nc} case(s) were NOT_EVALUATED on a side and are not compared; see the report for why`));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

// ---------------------------------------------------------------------------------------------
// Calibration

const pct = (x) => `${num(100 * x, 1)}%`;

/** A calibration as console text (or, with `markdown`, as a Markdown table). */
export function calibrationText(cal, { markdown = false } = {}) {
  const out = [];
  const flagged = cal.metrics.filter((g) => g.flagged).length;
  const head = `judge calibration: ${cal.used} of ${cal.labels} label(s) counted; ${flagged} of ${cal.metrics.length} group(s) flagged (kappa below ${cal.kappa_threshold})`;
  const rows = cal.metrics.map((g) => {
    const c = g.confusion;
    return [g.metric_name + (g.rubric_id ? ` / ${g.rubric_id}` : ''), g.judge_model, String(g.n), `${pct(g.agreement)} [${pct(g.agreement_ci95[0])}, ${pct(g.agreement_ci95[1])}]`,
      g.kappa === null ? 'undefined' : num(g.kappa, 3),
      `${c.judge_pass_human_pass}/${c.judge_pass_human_fail}/${c.judge_fail_human_pass}/${c.judge_fail_human_fail}`, g.flagged ? `FLAGGED: ${g.flag_reason}` : 'ok'];
  });
  const header = ['metric / rubric', 'judge model', 'n', 'agreement [95% Wilson]', 'kappa', 'PP/PF/FP/FF', ''];
  const data = markdown ? mdText : textLine;
  const cells = rows.map((r) => r.map(data));
  if (markdown) {
    out.push(`### ${flagged ? '⚠️' : '✅'} ${mdText(head)}`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`,
      ...cells.map((r) => `| ${r.join(' | ')} |`), '',
      '_PP/PF/FP/FF: the judge passed and the person passed / failed, the judge failed and the person passed / failed._');
  } else {
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
    const line = (r) => r.map((x, i) => x.padEnd(widths[i])).join('  ').trimEnd();
    out.push(head, '', line(header), ...cells.map(line), '', 'PP/PF/FP/FF: judge pass & person pass / judge pass & person fail / judge fail & person pass / judge fail & person fail');
  }
  if (cal.skipped.length) {
    out.push('', `${cal.skipped.length} label(s) not counted:`);
    for (const s of cal.skipped.slice(0, 50)) out.push(`${markdown ? '- ' : '  '}${data(`${s.path}: ${s.reason}: ${s.message}`)}`);
    if (cal.skipped.length > 50) out.push(`  ... ${cal.skipped.length - 50} more`);
  }
  return `${out.join('\n')}\n`;
}
