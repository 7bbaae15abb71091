//! What `evalcore eval` says on stderr after a run, where ADK's console output stays silent: the
//! cases that did not pass and the metrics that missed, what could not be evaluated and why
//! (with the flag that fixes it), and the cases the agent could not complete.
import { runHealth } from '../health.js';
import { keyVariables } from '../node/judge_env.js';
import { formatScore } from '../report/results_view.js';
import { textLine } from '../report/workflow.js';

const TOO_MANY = 10;

/** One line per case run that did not pass, naming the metrics that missed their threshold. */
export function failedCaseLines(setResults, numRuns) {
  const failed = [];
  for (const set of setResults) {
    for (const r of set.eval_case_results) {
      if (r.final_eval_status === 'PASSED') continue;
      const run = numRuns > 1 && Number.isInteger(r.run) ? ` (run ${r.run + 1})` : '';
      const missed = (r.overall_eval_metric_results ?? []).filter((m) => m.eval_status === 'FAILED')
        .map((m) => `${textLine(m.metric_name)} ${formatScore(m.score)} (threshold ${formatScore(m.threshold)})`);
      const why = r.error ? `${textLine(r.error.code)} (below)` : missed.length > 0 ? missed.join(', ') : `${r.final_eval_status} (below)`;
      failed.push(`  ${textLine(`${set.eval_set_id}/${r.eval_id}`)}${run}: ${why}`);
    }
  }
  if (failed.length === 0) return [];
  const more = failed.length > TOO_MANY ? [`  ... and ${failed.length - TOO_MANY} more`] : [];
  return [`${failed.length} case run${failed.length === 1 ? '' : 's'} did not pass (--print_detailed_results shows each invocation):`,
    ...failed.slice(0, TOO_MANY), ...more];
}

/** What a NOT_EVALUATED reason asks of the command line, or null. */
function hintFor(group, judge, opts) {
  switch (group.reason) {
    case 'needs_judge':
      return 'give a judge: --judge gemini:gemini-2.5-flash (key in GEMINI_API_KEY), --judge openai:MODEL or --judge anthropic:MODEL';
    case 'cassette_miss':
      return `the cassette ${opts.judge_cassette} has no answer for these calls: record them with --judge_mode auto and the judge's key`;
    case 'judge_error':
      if (judge && /\bHTTP 40[13]\b/.test(group.example ?? '')) return `the judge refused the request's key: check ${keyVariables(judge.provider)}`;
      return null;
    default:
      return null;
  }
}

/**
 * What could not be evaluated, for stderr: runHealth's lines, each reason followed by what
 * fixes it here; with `detailed` every item; the agent's stacks with `debug`.
 */
export function healthLines(results, { detailed, debug, judge, opts }) {
  const h = runHealth(results);
  const lines = [];
  for (const line of h.lines) {
    lines.push(textLine(line));
    const group = h.byReason.find((g) => line.startsWith(`  ${g.reason} x${g.count} `));
    const hint = group ? hintFor(group, judge, opts) : null;
    if (hint) lines.push(`    -> ${hint}`);
  }
  if (detailed) lines.push(...h.unreportedLines.map(textLine));
  if (detailed && h.items.length > 0) {
    lines.push('NOT_EVALUATED, each:');
    for (const it of h.items) {
      const turn = it.invocation === null ? '' : ` (invocation ${it.invocation + 1}${it.of ? ` of ${it.of}` : ''})`;
      lines.push(`  ${textLine(`${it.label}: ${it.metric}${turn}: ${it.reason}${it.error ? `: ${it.error}` : ''}`)}`);
    }
  }
  if (debug) {
    for (const e of h.caseErrors) if (e.stack) lines.push(`stack of ${e.label} (turn ${e.turn ?? '?'}):`, ...e.stack.split('\n').map((l) => `  ${l}`));
  } else if (h.caseErrors.some((e) => e.stack)) {
    lines.push('(--log_level DEBUG prints the stack of what the agent threw)');
  }
  return { h, lines };
}
