//! A Node run's folder read back when the server starts (`evalcore serve --runs_dir`): its
//! meta.json and the ledger it appended one line a result. What a kill or another program left
//! is read around, never fatal and never destroyed: a ledger line that is cut or is not a
//! record of this run is skipped and reported (and stays in the file; a cut last line is closed
//! so the next result starts a line of its own), a meta.json that cannot be read is kept aside
//! and made again from the run's input, and a run whose meta says it ended while its ledger
//! lacks cases is taken up again. No case is lost.
import { appendFile, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Ledger, parseUnit } from './ledger.js';

/** What a kept result may say of its case. */
const RESULT_STATUSES = new Set(['PASSED', 'FAILED', 'NOT_EVALUATED', 'DEAD']);

const readText = (path) => readFile(path, 'utf8').catch((e) => {
  if (e.code === 'ENOENT') return null;
  throw e;
});

/** The units of a run's input head (`0.3`: run 0, case at index 3), or null without a head. */
const unitsOf = (head) => (head === null ? null
  : new Set(Array.from({ length: head.numRuns }, (_, r) => head.places.map((p) => `${r}.${p.index}`)).flat()));

/** Why `r` (a parsed ledger line) is no record of the run whose units are `units`, or null. */
function notRecord(r, units) {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return 'it is not an object';
  if (typeof r.unit !== 'string' || parseUnit(r.unit) === null) return 'it names no unit';
  if (units !== null && !units.has(r.unit)) return `unit ${r.unit} is not one of this run's`;
  if (!RESULT_STATUSES.has(r.status)) return 'its status is not a result\'s';
  if (r.status !== 'DEAD' && typeof r.key !== 'string') return 'it names no stored result';
  return null;
}

/** A saved meta that can be used: `{meta: {id, created, total, ...}, bodyHash}`. */
const usable = (saved, id) => saved !== null && typeof saved === 'object' && saved.meta?.id === id
  && Number.isSafeInteger(saved.meta.total) && Number.isFinite(saved.meta.created);

/**
 * The records of a ledger file's text, the first per unit, each line that is none reported
 * (`report(message)`); a last line without its newline is closed (appendFile) so nothing is
 * appended onto it.
 */
async function readLedger(path, id, units, report) {
  const text = await readText(path);
  if (text === null) return [];
  if (text !== '' && !text.endsWith('\n')) await appendFile(path, '\n');
  const records = [];
  const seen = new Set();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      report(`run ${id}: ledger line ${i + 1} skipped: it is not whole JSON (a write cut short); its case is scored again`);
      return;
    }
    const why = notRecord(r, units);
    if (why !== null) {
      report(`run ${id}: ledger line ${i + 1} skipped: ${why}`);
      return;
    }
    // One record per unit, the first: a line written twice (a retry of a write) counts once.
    if (!seen.has(r.unit)) {
      seen.add(r.unit);
      records.push({ ...r, seq: records.length + 1 });
    }
  });
  return records;
}

/** The meta of a run made again from its input head (the meta file lost): running, no body hash. */
async function metaFromHead(dir, id, head) {
  const created = (await stat(join(dir, 'runs', id, 'input', 'head.json')).catch(() => null))?.mtimeMs ?? Date.now();
  return {
    meta: {
      id, name: head.name ?? null, created: Math.floor(created), total: head.places.length * head.numRuns,
      evalSetId: head.evalSet?.eval_set_id ?? null, numRuns: head.numRuns,
    },
    bodyHash: null,
  };
}

/**
 * Run `id` of the runs folder `dir` read back: `{ledger, bodyHash, remade}` (`remade`: its meta
 * was made again, to be saved), or null when there is no run to resume (a submission that was
 * never answered 202: its folder, holding only its input, is removed; a folder of which nothing
 * can be read: left as it is). `head` is the run's input head
 * or null; `report(message)` hears what was skipped.
 */
export async function readRunFolder(dir, id, head, report) {
  const folder = join(dir, 'runs', id);
  const metaPath = join(folder, 'meta.json');
  const metaText = await readText(metaPath);
  const ledgerPath = join(folder, 'ledger.ndjson');
  if (metaText === null && (await readText(ledgerPath)) === null) {
    // Made up to its input, never to its meta: the POST was not answered 202.
    await rm(folder, { recursive: true, force: true });
    return null;
  }
  let saved = null;
  try {
    saved = metaText === null ? null : JSON.parse(metaText);
  } catch {
    // Said below.
  }
  let remade = false;
  if (!usable(saved, id)) {
    if (head === null) {
      report(`run ${id}: neither its meta.json nor its input can be read; its folder is left as it is`);
      return null;
    }
    if (metaText !== null) await rename(metaPath, `${metaPath}.unreadable-${Date.now()}`);
    report(`run ${id}: its meta.json ${metaText === null ? 'is missing' : 'cannot be read (kept aside as meta.json.unreadable-*)'}; made again from the run's input`);
    saved = await metaFromHead(dir, id, head);
    remade = true;
  }
  const records = await readLedger(ledgerPath, id, unitsOf(head), report);
  const ledger = new Ledger(saved.meta, records);
  // A meta that says the run ended while cases have no result (a ledger line lost): taken up again.
  if ((ledger.status === 'done' || ledger.meta.error?.code === 'dead_letter') && ledger.units.size < ledger.meta.total) {
    report(`run ${id}: it was ${ledger.status} with ${ledger.units.size} of ${ledger.meta.total} cases in its ledger; the others are scored again`);
    Object.assign(ledger.meta, { status: 'running', finished: null, error: null });
    remade = true;
  }
  ledger.finishIfComplete(Date.now());
  return { ledger, bodyHash: saved.bodyHash ?? null, remade };
}
