// Scores hello_world_agent's recorded turns against its eval set and prints what `adk eval
// --print_detailed_results` prints. Nothing is called over the network: the agent's turns were
// recorded earlier (recorded_turns.json, ADK 2.x's invocation shape).
//
//   node examples/hello_world/run.mjs            detailed report, exit 0
//   node examples/hello_world/run.mjs --summary  only the "Eval Run Summary"
//   node examples/hello_world/run.mjs --strict   exit 1 when a case is not PASSED, as `adk eval` does
import { readFileSync } from 'node:fs';
import { evaluateInvocations, formatReport, loadEvalConfig, loadEvalSet } from '../../pkg/index.js';

const read = (name) => readFileSync(new URL(name, import.meta.url), 'utf8');
const args = new Set(process.argv.slice(2));

const evalSet = loadEvalSet(read('./hello_world.evalset.json'));
const config = loadEvalConfig(read('./test_config.json'));
const recorded = JSON.parse(read('./recorded_turns.json'));

const results = [];
for (const evalCase of evalSet.eval_cases) {
  const actual = recorded[evalCase.eval_id];
  if (!actual) throw new Error(`recorded_turns.json has no turns for eval case ${evalCase.eval_id}`);
  results.push(await evaluateInvocations({ evalCase, actual, config, evalSetId: evalSet.eval_set_id }));
}

process.stdout.write(formatReport(results, { detailed: !args.has('--summary') }));

// `adk eval` exits 1 when any case is not PASSED (NOT_EVALUATED counts as failed) or nothing ran.
// This example fails one case on purpose, so only --strict turns that into the exit code.
const notPassed = results.filter((r) => r.final_eval_status !== 'PASSED').length;
if (args.has('--strict') && (notPassed > 0 || results.length === 0)) process.exitCode = 1;
