//! `evalcore init`'s starter project: the package's starter/ files (an agent module, an eval set,
//! its config, a vitest test) copied into a folder, and the package.json entries that run them.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readJsonFile } from './files.js';

const STARTER = new URL('../../starter/', import.meta.url);

/** The starter's files, relative to the folder they are written to, each with what it is. */
export const STARTER_FILES = [
  ['agent.mjs', 'the agent under test: a plain async function'],
  ['evals/weather.evalset.json', 'an eval set of two cases (ADK\'s schema)'],
  ['evals/test_config.json', 'the metrics and their pass thresholds'],
  ['evals/weather.test.mjs', 'a vitest test that runs every eval set in evals/'],
];

/** package.json scripts the starter adds. */
export const STARTER_SCRIPTS = {
  eval: 'evalcore eval agent.mjs evals/weather.evalset.json',
  test: 'vitest run',
};

// The vitest the starter's test was written against (examples/vitest pins the same release).
const VITEST_RANGE = '^3.2.7';

const packageVersion = () => JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** The starter file `name` as the package ships it. */
export function starterText(name) {
  return readFileSync(new URL(name, STARTER), 'utf8');
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What package.json becomes: `{ value, created, added: {scripts, devDependencies}, conflicts }`.
 * A script of the same name with another command is a conflict (kept unless `force`); a
 * dependency already listed anywhere is left as it is.
 */
function plannedPackageJson(path, dir, force) {
  const created = !existsSync(path);
  const value = created ? { name: packageName(dir), private: true } : readJsonFile(path, 'package.json');
  if (!isObject(value)) throw new UsageError(`${path} is not a JSON object`, 'init');
  const added = { scripts: [], devDependencies: [] };
  const conflicts = [];
  if (value.scripts !== undefined && !isObject(value.scripts)) throw new UsageError(`${path}: "scripts" is not an object`, 'init');
  const scripts = { ...value.scripts };
  for (const [name, command] of Object.entries(STARTER_SCRIPTS)) {
    if (scripts[name] === command) continue;
    if (scripts[name] !== undefined && !force) {
      conflicts.push(`package.json scripts.${name} ("${scripts[name]}")`);
      continue;
    }
    scripts[name] = command;
    added.scripts.push(name);
  }
  const listed = (dep) => ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']
    .some((k) => isObject(value[k]) && Object.hasOwn(value[k], dep));
  const devDependencies = isObject(value.devDependencies) ? { ...value.devDependencies } : {};
  for (const [dep, range] of [['evalcore', `^${packageVersion()}`], ['vitest', VITEST_RANGE]]) {
    if (listed(dep)) continue;
    devDependencies[dep] = range;
    added.devDependencies.push(dep);
  }
  return {
    value: { ...value, scripts, ...(added.devDependencies.length > 0 ? { devDependencies } : {}) },
    created, added, conflicts,
  };
}

/** npm's rules for a name, from the folder's: lower case, no spaces or leading dot/underscore. */
function packageName(dir) {
  const base = resolve(dir).split(/[\\/]/).pop() ?? '';
  const name = base.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'agent-evals' : name;
}

/**
 * Writes the starter into `dir` (created if missing). Nothing is written when a file would be
 * overwritten (one with other contents) or a package.json script replaced, unless `force`: the
 * UsageError lists every such file. Returns `{ dir, files: [[name, about, 'wrote'|'kept']],
 * packageJson }`.
 */
export function writeStarter(dir, { force = false } = {}) {
  const root = resolve(dir);
  const st = statSync(root, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new UsageError(`${dir} exists and is not a folder`, 'init');
  const files = STARTER_FILES.map(([name, about]) => {
    const target = join(root, name);
    const text = starterText(name);
    const existing = statSync(target, { throwIfNoEntry: false });
    if (existing && !existing.isFile()) throw new UsageError(`${join(dir, name)} exists and is not a regular file`, 'init');
    const same = existing !== undefined && readFileSync(target, 'utf8') === text;
    return { name, about, target, text, exists: existing !== undefined, same };
  });
  const pkgPath = join(root, 'package.json');
  const pkg = plannedPackageJson(pkgPath, root, force);
  const conflicts = [...files.filter((f) => f.exists && !f.same).map((f) => f.name), ...pkg.conflicts];
  if (conflicts.length > 0 && !force) {
    throw new UsageError(`${dir} already has ${conflicts.join(', ')}; nothing was written (--force replaces them)`, 'init');
  }
  mkdirSync(root, { recursive: true });
  for (const f of files) {
    if (f.same) continue;
    mkdirSync(dirname(f.target), { recursive: true });
    writeFileSync(f.target, f.text);
  }
  const changed = pkg.created || pkg.added.scripts.length > 0 || pkg.added.devDependencies.length > 0;
  if (changed) writeFileSync(pkgPath, `${JSON.stringify(pkg.value, null, 2)}\n`);
  return {
    dir: root,
    files: files.map((f) => [f.name, f.about, f.same ? 'kept' : 'wrote']),
    packageJson: { created: pkg.created, changed, added: pkg.added },
  };
}
