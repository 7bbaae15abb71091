//! The `evalcore` command: dispatch, help, and turning every user error into one line on
//! stderr with exit code 2 (a stack trace only for evalcore's own bugs, or with EVALCORE_DEBUG).
import { UsageError } from './args.js';

export const HELP = `Usage: evalcore <command> [options]

Commands:
  eval AGENT_MODULE EVAL_SET[:id,id]...      run an agent on eval sets and score it (adk eval)
  eval --traces FILE [EVAL_SET]...           score recorded sessions (OpenTelemetry traces), against
                                             the eval cases they match or on their own
  traces import FILE... --out SET.evalset.json
                                             recorded sessions as eval cases (ADK's "add session")
  compare BASELINE CANDIDATE                 compare two runs (files or folders) with statistics; exit 1
                                             when the candidate regressed (see --fail_on)
  calibrate LABELS RESULT...                 how far each LLM judge agrees with people's labels
  grade [DATASET...] [--config C]            score agents-cli traces (agents-cli eval grade)
  metrics [--json]                           list every metric name evalcore accepts
  eval_set create AGENT_MODULE EVAL_SET_ID   create an empty eval set
  eval_set add_eval_case AGENT_MODULE EVAL_SET_ID --scenarios_file F --session_input_file S
                                             add conversation-scenario cases to an eval set
  migrate OLD.test.json NEW.evalset.json     convert legacy eval data to the current schema
  runs submit|status|wait|result|cancel|list --remote URL
                                             runs kept by an endpoint: submit, leave, come back
  serve [--port N] [--host H]                serve the evaluation endpoint (prints its URL first)
  view [FILES...] [--port N] [--no-open]     open results, eval sets and configs in the viewer
  init [DIR] [--force]                       write a starter: an agent, an eval set, a config, a vitest test
  web AGENTS_DIR [--port N] [--host H]       ADK's dev UI for @google/adk agents, Eval tab by evalcore

Run \`evalcore <command> --help\` for a command's options.
`;

/** A user's mistake as one line: EvalError as `code at path: message`. */
export function describeError(e) {
  if (e instanceof UsageError) return e.message;
  if (e && e.name === 'EvalError') return `${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}`;
  if (e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && typeof e.message === 'string') return e.message;
  return null;
}

/**
 * Runs the command line `argv` (without node and the script) with `io` = `{ stdout, stderr,
 * env, onInterrupt?, offInterrupt? }`; resolves to the exit code.
 */
export async function main(argv, io) {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr.write(HELP);
        return 2;
      case '--help': case '-h': case 'help':
        io.stdout.write(HELP);
        return 0;
      case '--version': case '-v': {
        const { readFileSync } = await import('node:fs');
        const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
        io.stdout.write(`evalcore ${pkg.version}\n`);
        return 0;
      }
      case 'eval': {
        const { runEval } = await import('./eval.js');
        return await runEval(rest, io);
      }
      case 'traces': {
        const { runTraces } = await import('./traces.js');
        return await runTraces(rest, io);
      }
      case 'compare': {
        const { runCompare } = await import('./compare.js');
        return await runCompare(rest, io);
      }
      case 'calibrate': {
        const { runCalibrate } = await import('./compare.js');
        return await runCalibrate(rest, io);
      }
      case 'grade': {
        const { runGrade } = await import('./grade.js');
        return await runGrade(rest, io);
      }
      case 'metrics': {
        const { runMetrics } = await import('./metrics.js');
        return await runMetrics(rest, io);
      }
      case 'eval_set': case 'eval-set': {
        const { runEvalSet } = await import('./eval_set.js');
        return await runEvalSet(rest, io);
      }
      case 'migrate': {
        const { runMigrate } = await import('./migrate.js');
        return await runMigrate(rest, io);
      }
      case 'runs': {
        const { runRuns } = await import('./runs.js');
        return await runRuns(rest, io);
      }
      case 'serve': {
        const { runServe } = await import('./serve.js');
        return await runServe(rest, io);
      }
      case 'view': {
        const { runView } = await import('./view.js');
        return await runView(rest, io);
      }
      case 'init': {
        const { runInit } = await import('./init.js');
        return runInit(rest, io);
      }
      case 'web': {
        const { runWeb } = await import('./web.js');
        return await runWeb(rest, io);
      }
      default:
        throw new UsageError(`unknown command "${command}" (expected eval, grade, compare, calibrate, metrics, eval_set, init, migrate, runs, serve, traces, view or web; see evalcore --help)`);
    }
  } catch (e) {
    const line = describeError(e);
    if (line === null || io.env?.EVALCORE_DEBUG) {
      io.stderr.write(`evalcore: internal error: ${e && e.stack ? e.stack : String(e)}\n`);
      return line === null ? 70 : 2;
    }
    const where = e instanceof UsageError && e.command ? `evalcore ${e.command}: ` : 'evalcore: ';
    io.stderr.write(`${where}${line.replace(/\s*\n\s*/g, ' ')}\n`);
    return 2;
  }
}
