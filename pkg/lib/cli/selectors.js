//! `adk eval`'s positional arguments: `<eval set file | eval set id>[:id,id,...]` (SPEC §5.3),
//! with ADK's bug fixed: ids are trimmed (`file.json:a, b` selects `a` and `b`).

/**
 * Splits each argument at its first `:` (after a Windows drive prefix such as `C:\`), keeps the
 * comma list before any second `:`, trims the ids and drops empty ones. Repeating a set merges
 * its lists, so a bare mention plus a filtered one runs only the filtered ids; an empty list
 * means every case. Returns `Map<set, ids[]>` in first-mention order.
 */
export function parseSelectors(args) {
  const sets = new Map();
  for (const arg of args) {
    const drive = /^[A-Za-z]:[\\/]/.test(arg);
    const at = arg.indexOf(':', drive ? 3 : 0);
    let set = arg;
    let ids = [];
    if (at !== -1) {
      set = arg.slice(0, at);
      ids = arg.slice(at + 1).split(':')[0].split(',').map((s) => s.trim()).filter((s) => s !== '');
    }
    const list = sets.get(set) ?? [];
    sets.set(set, list);
    for (const id of ids) if (!list.includes(id)) list.push(id);
  }
  return sets;
}
