// Issue 29's "done": a TypeScript ADK project laid out as agents-cli scaffolds one (`app/agent.ts`
// exporting an @google/adk LlmAgent with a FunctionTool and a Gemini model name;
// tests/eval/datasets/, tests/eval/eval_config.yaml) runs its agents-cli dataset and metrics with
// evalcore, locally: `evalcore eval app/agent.ts tests/eval/datasets/basic-dataset.json` finds
// the YAML config, runs the real agent through tsx, and judges. The agent's Gemini calls and the
// judge go to the loopback server in Gemini's wire format (GOOGLE_GEMINI_BASE_URL, which
// @google/genai reads), so nothing leaves the machine. The project's tsx comes from npm, as its
// user would install it; @google/adk and zod from examples/adk_agent (scripts/setup.sh installs
// them). Without either, the test says why it skipped. (tools/agents-cli/scaffold_ts.sh does the
// same on a project agents-cli itself scaffolds.)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DATA, PKG, ROOT } from './helpers.mjs';
import { startJudgeServer } from './support/judge-server.mjs';
import { weatherAgentAndJudge } from './support/scripted-gemini.mjs';

const BIN = join(PKG, 'bin', 'evalcore.js');
const TSX_VERSION = '4.23.15';
const EXAMPLE_MODULES = join(ROOT, 'examples', 'adk_agent', 'node_modules');
const work = mkdtempSync(join(tmpdir(), 'evalcore-agents-cli-ts-'));
let server;
before(async () => { server = await startJudgeServer(); });
after(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

// The scaffold's shape, in our words: a weather agent with one tool.
const AGENT_TS = `import { FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Returns the current weather in a city.',
  parameters: z.object({ city: z.string().describe('The city.') }),
  execute: ({ city }: { city: string }) => ({ status: 'success', report: \`It is sunny in \${city}, 72°F.\` }),
});

export const rootAgent = new LlmAgent({
  name: 'weather_agent',
  model: 'gemini-2.5-flash',
  description: 'Tells the weather in a city.',
  instruction: 'Tell the user the weather in a city with the get_weather tool.',
  tools: [getWeather],
});
`;

const CONFIG = `metrics_to_run:
  - final_response_quality
  - tool_use_quality
  - helpfulness
custom_metrics:
  - name: final_response_quality
    threshold: 0.6
    judge_model_sampling_count: 1
  - name: tool_use_quality
    threshold: 0.5
    judge_model_sampling_count: 1
  - name: helpfulness
    prompt_template: |
      Rate the agent's response 1-5 for helpfulness.
      Prompt: {prompt}
      Final response: {response}
      Return JSON: {"score": <1-5>, "explanation": "<reason>"}
`;

function cli(args, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, EVALCORE_DEBUG: '', NODE_OPTIONS: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

test('a TypeScript ADK project in agents-cli\'s layout runs its dataset and metrics with evalcore', async (t) => {
  if (!existsSync(join(EXAMPLE_MODULES, '@google', 'adk', 'package.json'))) {
    t.skip('examples/adk_agent has no @google/adk installed (scripts/setup.sh installs it)');
    return;
  }
  const dir = join(work, 'weather');
  mkdirSync(join(dir, 'app'), { recursive: true });
  mkdirSync(join(dir, 'tests', 'eval', 'datasets'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'weather', private: true, type: 'module' }));
  writeFileSync(join(dir, 'app', 'agent.ts'), AGENT_TS);
  writeFileSync(join(dir, 'tests', 'eval', 'eval_config.yaml'), CONFIG);
  writeFileSync(join(dir, 'tests', 'eval', 'datasets', 'basic-dataset.json'), readFileSync(join(DATA, 'agents_cli', 'single-turn-prompt.json')));
  const install = spawnSync('npm', ['install', '--save-dev', `tsx@${TSX_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  if (install.status !== 0 || !existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) {
    t.skip(`npm could not install tsx@${TSX_VERSION}: ${(install.stderr || install.error?.message || '').trim().split('\n')[0]}`);
    return;
  }
  symlinkSync(join(EXAMPLE_MODULES, '@google'), join(dir, 'node_modules', '@google'));
  symlinkSync(join(EXAMPLE_MODULES, 'zod'), join(dir, 'node_modules', 'zod'));
  server.script(weatherAgentAndJudge);
  const r = await cli(['eval', join('app', 'agent.ts'), join('tests', 'eval', 'datasets', 'basic-dataset.json'),
    '--judge', 'gemini:judge-m', '--judge_base_url', `${server.baseUrl}/v1beta`, '--results_dir', 'results', '--print_detailed_results'],
  dir, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.baseUrl });
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /basic-dataset:\n {2}Tests passed: 3\n {2}Tests failed: 0/);
  assert.match(r.stdout, /Metric: final_response_quality, Status: PASSED, Score: 0\.8, Threshold: 0\.6/);
  assert.match(r.stdout, /Metric: helpfulness, Status: INFORMATIONAL, Score: 4\.0, Threshold: None/);
  assert.match(r.stdout, /actual_response: +It is sunny in San Francisco, 72°F\.\n +expected_tool_calls: +\(none\)\n +actual_tool_calls: +get_weather\(/, 'the real agent called its tool and answered from it');
  assert.match(r.stdout, /Metric: tool_use_quality, Status: PASSED, Score: 1\.0/);
  const agentCalls = server.requests.filter((q) => Array.isArray(q.body.tools) && q.body.tools.length > 0);
  assert.equal(agentCalls.length, 4, 'the agent\'s model: one call per prompt, one more after the tool');
  assert.ok(agentCalls.every((q) => q.path === '/v1beta/models/gemini-2.5-flash:generateContent'));
});
