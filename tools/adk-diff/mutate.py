"""Mutations of the shared case oracles (camelCase, unknown keys, nulls, wrong types, dropped keys):
evalcore must accept exactly what google-adk 2.13's own models accept."""
import json, random, copy
import sys
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 11)
import os
HERE = os.path.dirname(os.path.abspath(__file__))
lines = [json.loads(l) for l in open(os.path.join(HERE, '..', '..', '..', 'shared', 'case_oracles.jsonl'))]
def camel(k):
    p = k.split('_'); return p[0] + ''.join(x.title() for x in p[1:])
def paths(o, pre=()):
    if isinstance(o, dict):
        yield pre, o
        for k, v in o.items(): yield from paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o): yield from paths(v, pre + (i,))
muts = []
for l in lines:
    for _ in range(12):
        inv = copy.deepcopy(l['actual_invocations'])
        ec = copy.deepcopy(l['eval_case'])
        target = random.choice(['ec', 'inv'])
        root = ec if target == 'ec' else {'x': inv}
        dicts = [d for p, d in paths(root) if d]
        if not dicts: continue
        d = random.choice(dicts)
        k = random.choice(list(d.keys()))
        op = random.choice(['camel', 'unknown', 'null', 'int', 'str', 'list', 'drop', 'emptyobj', 'bool'])
        if op == 'camel':
            ck = camel(k)
            if ck == k: continue
            d[ck] = d.pop(k)
        elif op == 'unknown': d['zz_' + k] = 1
        elif op == 'null': d[k] = None
        elif op == 'int': d[k] = 3
        elif op == 'str': d[k] = 'x'
        elif op == 'list': d[k] = []
        elif op == 'drop': d.pop(k)
        elif op == 'emptyobj': d[k] = {}
        elif op == 'bool': d[k] = True
        muts.append({'eval_case': ec, 'actual': inv, 'op': op, 'key': str(k)})
for m in muts: print(json.dumps(m))
