//! `evalcore migrate OLD.test.json NEW.evalset.json [--initial_session_file F]`: ADK's
//! `AgentEvaluator.migrate_eval_data_to_new_schema` (SPEC §5.1) with a deterministic set id.
import { existsSync } from 'node:fs';
import '../wasm/node_start.js';
import { EvalError } from '../wasm/api.js';
import { parseArgs, UsageError } from './args.js';
import { migrateFile } from '../node/evalsets.js';

export const HELP = `Usage: evalcore migrate OLD_FILE NEW_FILE [--initial_session_file FILE]

Converts legacy eval data (a *.test.json turn list or a named list), or an eval set in
@iqai/adk's camelCase shape, to an eval set in ADK's current schema, written in full (every
field, nulls included) as ADK's migration writes it; NEW_FILE's folder is created.
Legacy data is checked as ADK checks it against the criteria of the test_config.json beside
OLD_FILE (ADK's defaults without one): only tool_trajectory_avg_score, response_evaluation_score,
response_match_score and safety_v1, and the first turn must have the keys they read (query,
expected_tool_use, reference). The case id is OLD_FILE as given (as in ADK); the set id comes
from OLD_FILE's name (ADK uses a random UUID).

  --initial_session_file FILE   the cases' initial session: {"app_name", "user_id", "state"}
`;

/** Runs `evalcore migrate`; returns the exit code. */
export function runMigrate(argv, io) {
  const command = 'migrate';
  const { positionals, options, help } = parseArgs(argv, { initial_session_file: 'string' }, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('expected OLD_FILE NEW_FILE', command);
  const [oldPath, newPath] = positionals;
  if (!existsSync(oldPath)) throw new UsageError(`file not found: ${oldPath}`, command);
  if (options.initial_session_file !== undefined && !existsSync(options.initial_session_file)) {
    throw new UsageError(`initial session file not found: ${options.initial_session_file}`, command);
  }
  const evalSet = migrateFile(oldPath, newPath, options.initial_session_file);
  io.stdout.write(`Migrated ${oldPath} to ${newPath}: eval set '${evalSet.eval_set_id}' with ${evalSet.eval_cases.length} eval case(s).\n`);
  return 0;
}
