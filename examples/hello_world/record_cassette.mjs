// Re-records judge_cassette.json from the stand-in judge (standin_judge.mjs), through the CLI:
//   node examples/hello_world/record_cassette.mjs
// Needed only when evalcore's judge prompts change (the cassette is keyed by request content).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startStandInJudge } from './standin_judge.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const judge = await startStandInJudge();
rmSync(here('./judge_cassette.json'), { force: true });
// Asynchronous: the stand-in judge answers from this process's event loop.
const child = spawn(process.execPath, [
  here('../../pkg/bin/evalcore.js'), 'eval', here('./agent.mjs'), here('./hello_world.evalset.json'),
  '--config_file_path', here('./judged_config.json'),
  '--judge', 'openai:standin-judge', '--judge_base_url', judge.baseUrl,
  '--judge_cassette', here('./judge_cassette.json'), '--judge_mode', 'record',
  '--results_dir', fileURLToPath(new URL('../../target/record-cassette', import.meta.url)),
], { stdio: 'inherit' });
const status = await new Promise((r) => child.on('close', r));
await judge.close();
// Exit 1 only means some case did not pass (one fails on purpose); 2 and above are errors.
process.exit(status === 1 ? 0 : status ?? 1);
