// Runs Deno scripts for the portability tests: one child at a time, killed on teardown, stdout
// back on success and the tail of stderr in the error otherwise.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** `{ run(args, cwd) -> Promise<stdout>, kill() }`, with DENO_DIR under `work`. */
export function denoRunner(deno, work) {
  let child;
  return {
    run(args, cwd) {
      return new Promise((resolve, reject) => {
        child = spawn(deno, args, {
          cwd,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, DENO_DIR: join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => { stdout += d; });
        child.stderr.on('data', (d) => { stderr += d; });
        const proc = child;
        const timer = setTimeout(() => proc.kill('SIGKILL'), 300_000);
        child.on('error', reject);
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          if (code === 0) resolve(stdout);
          else reject(new Error(`deno exited with ${code ?? signal}\n${stderr.slice(-4000)}`));
        });
      });
    },
    kill() {
      if (child && child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
