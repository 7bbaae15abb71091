//! `evalcore init [DIR]`: writes a starter that passes out of the box (node/starter.js) and says
//! what to run next.
import { relative } from 'node:path';
import { STARTER_SCRIPTS, writeStarter } from '../node/starter.js';
import { parseArgs, UsageError } from './args.js';

export const HELP = `Usage: evalcore init [DIR] [--force]

Writes a starter project into DIR (default: the current folder; created if missing):
  agent.mjs                    the agent under test: a plain async function
  evals/weather.evalset.json   an eval set of two cases (ADK's schema)
  evals/test_config.json       the metrics and their pass thresholds
  evals/weather.test.mjs       a vitest test that runs every eval set in evals/
and adds to package.json (created if missing) the scripts
  "eval": "${STARTER_SCRIPTS.eval}"
  "test": "${STARTER_SCRIPTS.test}"
and evalcore and vitest as devDependencies where they are not listed yet: evalcore as this
copy was installed (the tarball, folder or range the installing project lists, a folder's path,
else ^VERSION), so that \`npm install\` in DIR gets it too.

An existing file with other contents, or a script of the same name, is never replaced: init
then writes nothing and lists them. --force replaces them.
`;

/** Runs `evalcore init`; returns the exit code. */
export function runInit(argv, io) {
  const command = 'init';
  const { positionals, options, help } = parseArgs(argv, { force: 'bool' }, command);
  if (help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length > 1) throw new UsageError(`expected at most one folder, found ${positionals.length} arguments`, command);
  const dir = positionals[0] ?? '.';
  const done = writeStarter(dir, { force: options.force === true });
  const out = [`evalcore init: a starter in ${dir === '.' ? 'this folder' : dir}`];
  const width = Math.max(...done.files.map(([name]) => name.length));
  for (const [name, about, what] of done.files) out.push(`  ${what === 'wrote' ? 'wrote' : 'kept '} ${name.padEnd(width)}  ${about}`);
  const { created, changed, added } = done.packageJson;
  const changes = [
    added.scripts.length > 0 ? `scripts ${added.scripts.join(', ')}` : '',
    added.devDependencies.length > 0 ? `devDependencies ${added.devDependencies.join(', ')}` : '',
  ].filter(Boolean).join('; ');
  out.push(!changed ? '  kept  package.json (it has the scripts and devDependencies)'
    : `  ${created ? 'wrote' : 'added to'} package.json: ${changes}`);
  const cd = relative(process.cwd(), done.dir);
  out.push('Next:');
  if (cd !== '') out.push(`  cd ${cd.includes(' ') ? JSON.stringify(cd) : cd}`);
  out.push('  npm install', `  npm run eval    # ${STARTER_SCRIPTS.eval}`, `  npm test        # ${STARTER_SCRIPTS.test}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
