#!/usr/bin/env python3
"""Writes the benchmark data set (SPEC-adk.md §8): one eval case of N invocations, seeded.

Expected side: ~30-word final responses (26-34 words), 1-3 tool calls per invocation with 1-3
args each, in the legacy `tool_uses` shape. Actual side: the same, with ~30% of the responses
perturbed (20% of their words replaced) and ~15% of the trajectories perturbed (an arg changed,
a call dropped or two calls swapped); actual calls carry random ids and use ADK 2.x's
`invocation_events` shape (a function_call event and a function_response event per call, then
the final-response event with its content nulled and its usage metadata kept).

    python3 benches/gen_data.py [--n 10000] [--seed 1234] [--out benches/.data] [--text synthetic|realistic]

writes `<out>/evalset.json` (the eval set text both implementations parse) and
`<out>/actual.json` (the actual invocations, a JSON array).

`--text synthetic` (the default, SPEC §8) draws words uniformly from the ~300-word list below:
a tokenizer or stemmer cache sees every word after a few invocations. `--text realistic` draws
them with their real frequencies (a Zipf-like curve) from the 30,000 most frequent English words
of the `wordfreq` package (PyPI, installed in benches/.venv by run.sh), and in ~15% of the
response pairs mixes in words with non-ASCII letters taken from its French, German, Spanish,
Portuguese and Polish lists; closer to what agents answer. Only the realistic mode needs wordfreq.
"""

import argparse
import json
import os
import random

WORDS = (
    "the a an and or but if then because while when where which who what this that these those "
    "weather forecast today tomorrow rain sunny cloudy windy storm temperature degrees cold warm "
    "city cities country travel flight flights booking booked hotel hotels room rooms price prices "
    "cheaper cheapest expensive available availability running runs ran runner quickly slowly "
    "generously carefully happily studies studying studied agent agents tool tools calling called "
    "calls result results answer answers answered question questions user users customer "
    "customers order orders ordered shipping shipped delivery delivered package packages tracking "
    "number numbers account accounts balance payment payments refund refunded policy policies "
    "meeting meetings schedule scheduled calendar invite invited email emails sent sending reply "
    "replied document documents summary summarize summarized report reports reporting analysis "
    "analyzing analyzed data database query queries search searched searching found finding "
    "information relational conditional hopeful goodness sensitivity national rational "
    "organization organizations generalization electrical electricity hopefulness formality "
    "dying lying tying skies ponies caresses cats ties happy happiness sky news innings outing "
    "please thanks sorry sure certainly indeed however therefore also only just very really "
    "is are was were be been being have has had do does did will would can could should may might "
    "one two three four five ten twenty hundred first second third last next previous new old "
    "open opened close closed start started finish finished check checked checking confirm "
    "confirmed confirmation cancel cancelled cancellation update updated updates change changed"
).split()

TOOLS = {
    "get_weather": ["city", "unit", "days"],
    "search_flights": ["origin", "destination", "date", "cabin"],
    "book_hotel": ["city", "check_in", "nights", "guests"],
    "lookup_order": ["order_id", "include_items"],
    "send_email": ["to", "subject", "body"],
    "query_database": ["table", "limit", "filter"],
    "create_event": ["title", "start", "duration_minutes"],
}


def arg_value(rng, name):
    kind = rng.random()
    if kind < 0.45:
        return rng.choice(WORDS) + ("_" + rng.choice(WORDS) if rng.random() < 0.3 else "")
    if kind < 0.75:
        return rng.randint(0, 500)
    if kind < 0.85:
        return rng.choice([True, False])
    if kind < 0.93:
        return round(rng.uniform(0, 100), 2)
    return [rng.randint(0, 9) for _ in range(rng.randint(1, 3))]


def make_calls(rng):
    calls = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(sorted(TOOLS))
        params = TOOLS[name]
        picked = rng.sample(params, rng.randint(1, min(3, len(params))))
        calls.append({"name": name, "args": {p: arg_value(rng, p) for p in picked}})
    return calls


class Vocabulary:
    """Where the words of questions and answers come from."""

    def __init__(self, mode, rng):
        self.rng = rng
        self.foreign = []
        if mode == "synthetic":
            self.words, self.cum = WORDS, None
            return
        import itertools
        import wordfreq  # benches/.venv only

        words = [w for w in wordfreq.top_n_list("en", 30_000) if w.isalpha()]
        weights = [wordfreq.word_frequency(w, "en") for w in words]
        self.words, self.cum = words, list(itertools.accumulate(weights))
        for lang in ("fr", "de", "es", "pt", "pl"):
            self.foreign += [w for w in wordfreq.top_n_list(lang, 4_000) if w.isalpha() and not w.isascii()]

    def word(self, foreign=False):
        if foreign and self.foreign and self.rng.random() < 0.25:
            return self.rng.choice(self.foreign)
        if self.cum is None:
            return self.rng.choice(self.words)
        return self.rng.choices(self.words, cum_weights=self.cum)[0]


def sentence(rng, n, vocab, foreign=False):
    words = [vocab.word(foreign) for _ in range(n)]
    words[0] = words[0].capitalize()
    return " ".join(words) + "."


def perturb_text(rng, text, vocab, foreign=False):
    words = text.split(" ")
    for i in rng.sample(range(len(words)), max(1, round(len(words) * 0.2))):
        words[i] = vocab.word(foreign)
    return " ".join(words)


def perturb_calls(rng, calls):
    calls = json.loads(json.dumps(calls))
    how = rng.choice(["arg", "drop", "swap"] if len(calls) > 1 else ["arg", "drop"])
    if how == "arg":
        call = rng.choice(calls)
        key = rng.choice(sorted(call["args"]))
        call["args"][key] = "changed_" + str(call["args"][key])
    elif how == "drop":
        calls.pop(rng.randrange(len(calls)))
    else:
        i, j = rng.sample(range(len(calls)), 2)
        calls[i], calls[j] = calls[j], calls[i]
    return calls


def content(role, text):
    return {"role": role, "parts": [{"text": text}]}


def call_id(rng):
    return "adk-%08x-%04x-%04x-%04x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48))


def actual_events(rng, calls, answer_words):
    events = []
    prompt = rng.randint(300, 900)
    for c in calls:
        cid = call_id(rng)
        events.append({
            "author": "bench_agent",
            "content": {"role": "model", "parts": [{"function_call": {"id": cid, "name": c["name"], "args": c["args"]}}]},
            "usage_metadata": {"prompt_token_count": prompt, "candidates_token_count": 18, "total_token_count": prompt + 18},
            "model_version": "gemini-2.5-flash",
        })
        events.append({
            "author": "bench_agent",
            "content": {"role": "user", "parts": [{"function_response": {"id": cid, "name": c["name"], "response": {"status": "ok"}}}]},
        })
        prompt += 40
    events.append({
        "author": "bench_agent",
        "content": None,
        "usage_metadata": {"prompt_token_count": prompt, "candidates_token_count": answer_words + 8,
                           "total_token_count": prompt + answer_words + 8},
        "model_version": "gemini-2.5-flash",
    })
    return events


def generate(n, seed, text="synthetic"):
    rng = random.Random(seed)
    vocab = Vocabulary(text, rng)
    expected, actual = [], []
    for i in range(n):
        # Realistic text: ~15% of the pairs hold words with non-ASCII letters.
        foreign = text == "realistic" and rng.random() < 0.15
        question = sentence(rng, rng.randint(6, 14), vocab, foreign).rstrip(".") + "?"
        answer = sentence(rng, rng.randint(26, 34), vocab, foreign)
        calls = make_calls(rng)
        expected.append({
            "invocation_id": f"inv-{i}",
            "user_content": content("user", question),
            "final_response": content("model", answer),
            "intermediate_data": {"tool_uses": calls},
        })
        got_answer = perturb_text(rng, answer, vocab, foreign) if rng.random() < 0.30 else answer
        got_calls = perturb_calls(rng, calls) if rng.random() < 0.15 else calls
        actual.append({
            "invocation_id": f"e-{call_id(rng)[4:]}",
            "user_content": content("user", question),
            "final_response": content("model", got_answer),
            "intermediate_data": {"invocation_events": actual_events(rng, got_calls, len(got_answer.split()))},
            "creation_timestamp": 1763800000.0 + i,
            "duration": round(rng.uniform(0.5, 3.0), 3),
            "model_duration": round(rng.uniform(0.3, 0.5), 3),
            "tool_duration": round(rng.uniform(0.0, 0.1), 3),
        })
    eval_set = {
        "eval_set_id": "bench",
        "name": "bench",
        "eval_cases": [{
            "eval_id": "bench_case",
            "conversation": expected,
            "session_input": {"app_name": "bench_app", "user_id": "bench_user", "state": {}},
        }],
    }
    return eval_set, actual


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--out", default=os.path.join(here, ".data"))
    ap.add_argument("--text", choices=["synthetic", "realistic"], default="synthetic")
    args = ap.parse_args()
    eval_set, actual = generate(args.n, args.seed, args.text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "evalset.json"), "w") as f:
        json.dump(eval_set, f)
    with open(os.path.join(args.out, "actual.json"), "w") as f:
        json.dump(actual, f)
    sizes = {name: os.path.getsize(os.path.join(args.out, name)) for name in ("evalset.json", "actual.json")}
    print(json.dumps({"n": args.n, "seed": args.seed, "text": args.text, "out": args.out, "bytes": sizes}))


if __name__ == "__main__":
    main()
