#!/usr/bin/env node
// The `evalcore` command line (see lib/cli/main.js). Ctrl-C stops the run after the cases in
// flight; a second Ctrl-C exits at once.
import { main } from '../lib/cli/main.js';

const handlers = new Set();
let interrupted = 0;
process.on('SIGINT', () => {
  interrupted++;
  if (interrupted > 1 || handlers.size === 0) process.exit(130);
  for (const h of handlers) h();
});

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt: (h) => handlers.add(h),
  offInterrupt: (h) => handlers.delete(h),
});
process.exitCode = code;
