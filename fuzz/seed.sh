#!/usr/bin/env bash
# Builds the seed corpora under fuzz/corpus/<target>/ (gitignored) from the repo's examples, the
# report test data, the oracle/vector JSONL files the tests read (tests/data), and, when present,
# the real ADK corpus next to the repo (../shared/corpus). Nothing from ../shared is committed;
# it is copied here at run time.
#
#   fuzz/seed.sh            (re)build every target's seeds in fuzz/corpus/
#   fuzz/seed.sh DIR        the same seeds in DIR/<target>/ (scripts/test.sh's short run)
#   SHARED=/path fuzz/seed.sh
set -euo pipefail

FUZZ=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$FUZZ/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
OUT=${1:-$FUZZ/corpus}
TARGETS="eval_set dataset validate_eval_set eval_config result_file result_report judge_answer provider_reply retry_after tokenize rouge evaluate_invocations load_traces"
for t in $TARGETS; do mkdir -p "$OUT/$t"; done

# agents-cli datasets (the examples of its documentation, traces it recorded).
for f in "$ROOT"/tests/data/agents_cli/*.json; do
  [ -e "$f" ] || continue
  cp "$f" "$OUT/dataset/$(basename "$f")"
  cp "$f" "$OUT/eval_set/agents-cli-$(basename "$f")"
done

# Whole files: eval sets and legacy test files, configs, result files.
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  cp "$f" "$OUT/eval_set/file-$n.json"
  cp "$f" "$OUT/validate_eval_set/file-$n.json"
done < <(find "$ROOT/examples" "$SHARED/corpus" \( -name '*.evalset.json' -o -name '*.test.json' -o -name '*.session.json' \) -print0 2>/dev/null)
while IFS= read -r -d '' f; do
  n=$((n + 1))
  cp "$f" "$OUT/eval_config/file-$n.json"
done < <(find "$ROOT/examples" "$SHARED/corpus" -name '*config.json' -print0 2>/dev/null)
while IFS= read -r -d '' f; do
  n=$((n + 1))
  cp "$f" "$OUT/result_report/file-$n.json"
  cp "$f" "$OUT/result_file/file-$n.json"
  printf '%s\0{"detailed":true}' "$(cat "$f")" > "$OUT/result_report/detailed-$n.json"
done < <(find "$ROOT/src/report/testdata" "$ROOT/tools/adk-results" -name '*.json' -print0)

# OTLP trace files as the frameworks exported them (tests/data/traces), whole and a few bytes each.
for f in "$ROOT"/tests/data/traces/*.otlp.* "$ROOT"/tests/data/traces/*.logs.pb; do
  [ -e "$f" ] || continue
  n=$((n + 1))
  cp "$f" "$OUT/load_traces/file-$n"
done

# Records inside JSON/JSONL files, pulled apart with node (already needed by the package).
node - "$ROOT" "$ROOT/tests/data" "$OUT" <<'JS'
const fs = require('fs'), path = require('path');
const [root, data, out] = process.argv.slice(2);
let seq = 0;
const put = (target, text) => fs.writeFileSync(path.join(out, target, `seed-${++seq}`), text);
const jsonl = (name) => {
  const p = path.join(data, name);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
};
const strings = (v, acc = []) => {
  if (typeof v === 'string') acc.push(v);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, acc);
  return acc;
};

// Cases: scored as evaluateInvocations args, wrapped as one-case eval sets, their configs.
const cases = [...jsonl('case_oracles.jsonl'), ...jsonl('judge_oracles.jsonl')];
for (const [i, c] of cases.entries()) {
  if (!c.eval_case) continue;
  const args = { evalCase: c.eval_case, actual: c.actual_invocations || [], config: c.config || {} };
  put('evaluate_invocations', JSON.stringify(args));
  if (i % 3 === 0) put('evaluate_invocations', JSON.stringify({ ...args, config: {} }) + '\0' + JSON.stringify(c.config || {}));
  if (i % 4 === 0) {
    const set = JSON.stringify({ eval_set_id: `s${i}`, eval_cases: [c.eval_case] });
    put('eval_set', set);
    put('validate_eval_set', set);
  }
  if (c.config && i % 2 === 0) put('eval_config', JSON.stringify(c.config));
}

// Judge answers: every scripted judge reply in the judge oracles.
const answers = new Set();
for (const c of jsonl('judge_oracles.jsonl')) for (const s of strings(c.script)) if (s.length > 3) answers.add(s);
for (const a of [...answers].slice(0, 600)) put('judge_answer', a);

// Provider replies: recorded judge bodies, and one body per provider's wire format.
const cassette = path.join(root, 'examples/hello_world/judge_cassette.json');
if (fs.existsSync(cassette)) {
  for (const e of Object.values(JSON.parse(fs.readFileSync(cassette, 'utf8')).entries || {})) {
    put('provider_reply', e.body);
    try {
      const t = JSON.parse(e.body).choices?.[0]?.message?.content;
      if (typeof t === 'string') put('judge_answer', t);
    } catch {}
  }
}
const answer = '"is_the_agent_response_valid": "valid"';
put('provider_reply', JSON.stringify({ choices: [{ message: { content: answer } }] }));
put('provider_reply', JSON.stringify({ choices: [{ message: { content: [{ type: 'text', text: answer }] } }] }));
put('provider_reply', JSON.stringify({ choices: [{ message: { content: null, refusal: 'no' } }] }));
put('provider_reply', JSON.stringify({ candidates: [{ content: { parts: [{ text: 'x', thought: true }, { text: answer }] } }] }));
put('provider_reply', JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' } }));
put('provider_reply', JSON.stringify({ content: [{ type: 'thinking', thinking: 'x' }, { type: 'text', text: answer }] }));
put('provider_reply', JSON.stringify({ error: { message: 'rate limited', type: 'rate_limit_error' } }));
put('provider_reply', JSON.stringify({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }));
put('provider_reply', JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));

// Retry-After: 6 clock bytes, then the header value.
const clock = Buffer.from([0x01, 0x93, 0x00, 0x00, 0x00, 0x00]);
for (const v of ['2', '0', '1.5', ' 120 ', '-1', '1e400', 'Sun, 06 Nov 1994 08:49:37 GMT', 'Thu, 01 Jan 1970 00:00:10 GMT', 'Wed, 21 Oct 2015 07:28:00 GMT', 'soon'])
  put('retry_after', Buffer.concat([clock, Buffer.from(v)]));

// Text: ROUGE vectors (candidate NUL reference) and tokenizer inputs, plus stemmer words.
for (const r of jsonl('rouge1_vectors.jsonl')) {
  put('rouge', `${r.candidate}\0${r.reference}`);
  put('tokenize', r.candidate);
}
const words = jsonl('porter_stem_vectors.jsonl').map((w) => w.word);
for (let i = 0; i < words.length; i += 40) put('tokenize', words.slice(i, i + 40).join(' '));
JS

for t in $TARGETS; do
  printf '%-22s %5d seeds\n' "$t" "$(find "$OUT/$t" -type f | wc -l)"
done
