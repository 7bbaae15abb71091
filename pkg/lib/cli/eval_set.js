//! `evalcore eval_set create|add_eval_case`: ADK's eval set commands. Sets live at
//! `<agent folder>/<id>.evalset.json`, written as ADK's LocalEvalSetsManager writes them
//! (null and default fields left out).
import { existsSync, writeFileSync } from 'node:fs';
import '../wasm/node_start.js';
import { EvalError, loadEvalSet } from '../wasm/api.js';
import { adkEvalSetText, pythonTime, scenarioEvalId } from '../wasm/adk_text.js';
import { EVAL_SET_ID_PATTERN } from '../store/adk_layout.js';
import { appLocation, resolveAgentPath } from '../node/agent.js';
import { parseArgs, UsageError } from './args.js';
import { evalSetPath, readEvalSetFile, readJsonFile } from '../node/evalsets.js';

export const HELP = `Usage: evalcore eval_set create AGENT_MODULE EVAL_SET_ID
       evalcore eval_set add_eval_case AGENT_MODULE EVAL_SET_ID --scenarios_file F --session_input_file S

create          makes an empty eval set <agent folder>/EVAL_SET_ID.evalset.json
                (EVAL_SET_ID matches ^[a-zA-Z0-9_]+$; an existing set is an error)
add_eval_case   adds one eval case per conversation scenario in F (\`{"scenarios": [...]}\`),
                each starting from the session in S (\`{"app_name", "user_id", "state"}\`); the
                eval id is ADK's: the first 8 hex digits of the scenario's SHA-256. Cases whose
                id is already in the set are skipped.

AGENT_MODULE is the agent's module file or folder; its folder is the app.
`;

/** The app of AGENT_MODULE and the file of eval set `id` in it: `{ appName, path }`. */
function evalSetOf(agentArg, id, command) {
  const { appDir, appName } = appLocation(resolveAgentPath(agentArg, command));
  if (!EVAL_SET_ID_PATTERN.test(id)) throw new UsageError(`invalid eval set id "${id}": it must match ^[a-zA-Z0-9_]+$`, command);
  return { appName, path: evalSetPath(appDir, id) };
}

function createSet(argv, io) {
  const command = 'eval_set create';
  const { positionals, help } = parseArgs(argv, {}, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('expected AGENT_MODULE EVAL_SET_ID', command);
  const [agentArg, id] = positionals;
  const { appName, path } = evalSetOf(agentArg, id, command);
  if (existsSync(path)) throw new UsageError(`eval set ${id} already exists for app ${appName} (${path})`, command);
  writeFileSync(path, adkEvalSetText({ eval_set_id: id, name: id, eval_cases: [], creation_timestamp: pythonTime() }, { compact: true }));
  io.stdout.write(`Eval set '${id}' created for app '${appName}'.\n`);
  return 0;
}

function readJson(path, what, command) {
  if (!existsSync(path)) throw new UsageError(`${what} not found: ${path}`, command);
  return readJsonFile(path, what);
}

/** Scenarios and session checked by the eval set loader; errors point into the given files. */
function checkedScenarios(scenariosFile, sessionFile, command) {
  const doc = readJson(scenariosFile, 'scenarios file', command);
  const session = readJson(sessionFile, 'session input file', command);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray(doc.scenarios ?? [])) {
    throw new EvalError('schema', '$.scenarios', `${scenariosFile}: expected {"scenarios": [ConversationScenario, ...]}`);
  }
  const extra = Object.keys(doc).filter((k) => k !== 'scenarios');
  if (extra.length > 0) throw new EvalError('schema', `$.${extra[0]}`, `${scenariosFile}: unknown field "${extra[0]}" (expected only "scenarios")`);
  const scenarios = doc.scenarios ?? [];
  let set;
  try {
    set = loadEvalSet({
      eval_set_id: 'scenarios',
      eval_cases: scenarios.map((s, i) => ({ eval_id: `s${i}`, conversation_scenario: s, session_input: session })),
    });
  } catch (e) {
    if (!(e instanceof EvalError)) throw e;
    const m = /^\$\.eval_cases\[(\d+)\]\.(conversation_scenario|session_input)(.*)$/.exec(e.path);
    if (m) {
      const [file, path] = m[2] === 'session_input' ? [sessionFile, `$${m[3]}`] : [scenariosFile, `$.scenarios[${m[1]}]${m[3]}`];
      throw new EvalError(e.code, path, `${file}: ${e.message}`);
    }
    throw e;
  }
  return { scenarios: set.eval_cases.map((c) => c.conversation_scenario), session: set.eval_cases[0]?.session_input ?? null };
}

function addEvalCase(argv, io) {
  const command = 'eval_set add_eval_case';
  const { positionals, options, help } = parseArgs(argv, { scenarios_file: 'string', session_input_file: 'string' }, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('expected AGENT_MODULE EVAL_SET_ID', command);
  for (const f of ['scenarios_file', 'session_input_file']) {
    if (options[f] === undefined) throw new UsageError(`missing --${f}`, command);
  }
  const [agentArg, id] = positionals;
  const { path } = evalSetOf(agentArg, id, command);
  if (!existsSync(path)) throw new UsageError(`eval set ${id} not found (${path}); create it with \`evalcore eval_set create\``, command);
  const { scenarios, session } = checkedScenarios(options.scenarios_file, options.session_input_file, command);

  const { evalSet } = readEvalSetFile(path);
  const known = new Set(evalSet.eval_cases.map((c) => c.eval_id));
  let added = 0;
  for (const scenario of scenarios) {
    const evalId = scenarioEvalId(scenario);
    if (known.has(evalId)) {
      io.stdout.write(`Eval case '${evalId}' already exists in eval set '${id}', skipped adding.\n`);
      continue;
    }
    evalSet.eval_cases.push({
      eval_id: evalId,
      conversation_scenario: scenario,
      session_input: session,
      creation_timestamp: pythonTime(),
    });
    known.add(evalId);
    added++;
    // ADK saves the set after every case; one write at the end leaves the same file.
    io.stdout.write(`Eval case '${evalId}' added to eval set '${id}'.\n`);
  }
  if (added > 0) writeFileSync(path, adkEvalSetText(evalSet, { compact: true }));
  return 0;
}

/** Runs `evalcore eval_set <subcommand>`; returns the exit code. */
export function runEvalSet(argv, io) {
  const [sub, ...rest] = argv;
  if (sub === undefined) {
    io.stderr.write(HELP);
    return 2;
  }
  if (sub === '--help' || sub === '-h') {
    io.stdout.write(HELP);
    return 0;
  }
  if (sub === 'create') return createSet(rest, io);
  if (sub === 'add_eval_case' || sub === 'add-eval-case') return addEvalCase(rest, io);
  throw new UsageError(`unknown eval_set command "${sub}" (expected create or add_eval_case)`, 'eval_set');
}
