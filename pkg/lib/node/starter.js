//! `evalcore init`'s starter project: the package's starter/ files (an agent module, an eval set,
//! its config, a vitest test) copied into a folder, and the package.json entries that run them.
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const DEPENDENCY_KEYS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** `spec` (a dependency spec written in folder `from`) as written in folder `to`: a path is re-based. */
function rebased(spec, from, to) {
  const path = spec.startsWith('file:') ? spec.slice(5) : /^\.{0,2}[\\/]/.test(spec) || /\.(tgz|tar\.gz|tar)$/.test(spec) ? spec : null;
  if (path === null) return spec; // a version range, a tag, a git or https URL, an alias: as it is
  const target = isAbsolute(path) ? path : resolve(from, path);
  const rel = relative(to, target).split(sep).join('/');
  return `file:${rel === '' ? '.' : rel.startsWith('.') ? rel : `./${rel}`}`;
}

/**
 * The spec a new project in `dir` should list evalcore by: what the user installed this copy
 * from, so that `npm install` there gets it too. A copy under `<project>/node_modules/evalcore`
 * (npm copies a registry package, a tarball and, with install-links, a folder there; npx does
 * the same in its own project) was installed by what `<project>/package.json` lists, a path in
 * it re-based to `dir`; a copy outside any node_modules is a folder (a symlinked `npm install
 * ./folder`, a checkout), listed by its path. Without either: `^<this version>`, the registry's.
 */
export function evalcoreSpec(dir) {
  const own = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
  const parts = own.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return rebased(`file:${own}`, own, resolve(dir));
  const project = parts.slice(0, at).join(sep) || sep;
  let manifest = null;
  try {
    manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  } catch {
    // no project around this copy (a global install): the registry's
  }
  const listed = DEPENDENCY_KEYS.map((k) => (isObject(manifest?.[k]) ? manifest[k].evalcore : undefined)).find((v) => typeof v === 'string' && v !== '');
  return listed === undefined ? `^${packageVersion()}` : rebased(listed, project, resolve(dir));
}

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
  for (const [dep, range] of [['evalcore', evalcoreSpec(dir)], ['vitest', VITEST_RANGE]]) {
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
