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
    const drive = arg.length >= 3 && /^[A-Za-z]:[\\/]/.test(arg);
    const at = arg.indexOf(':', drive ? 3 : 0);
    let set = arg;
    let ids = [];
    if (at !== -1) {
      set = arg.slice(0, at);
      ids = arg.slice(at + 1).split(':')[0].split(',').map((s) => s.trim()).filter((s) => s !== '');
    }
    if (!sets.has(set)) sets.set(set, []);
    for (const id of ids) if (!sets.get(set).includes(id)) sets.get(set).push(id);
  }
  return sets;
}
