#!/usr/bin/env python3
"""Measures keyword retrieval through the CLI, the way a script would use it:
`wayfinder kb import` of a BEIR corpus into a fresh data folder, then one
`wayfinder kb search --json` process per query. Chunk ids are mapped to the
records' own ids through the data folder's database (kb_documents.record_id).

Usage:
  scripts/kb-eval.py WAYFINDER_BIN SET_DIR QRELS [--top N] [-- extra kb search flags]
e.g.
  scripts/kb-eval.py ./wayfinder backend/knowledge/testdata/ko qrels/dev.tsv
  scripts/kb-eval.py ./wayfinder ../shared/eval/scifact qrels/test.tsv --top 100

Prints the share of queries with a relevant document in the top five
("answer in top 5"; equal to recall@5 when each query has one relevant
document), recall@5, nDCG@10 and recall@100 (over the documents, best chunk
first) and the median time of one search process. No embedding model is
reached (OLLAMA_HOST points at a closed port), so this is keyword-only.
"""
import json
import math
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    extra = []
    if '--' in args:
        i = args.index('--')
        args, extra = args[:i], args[i + 1:]
    top = 10
    if '--top' in args:
        i = args.index('--top')
        top = int(args[i + 1])
        del args[i:i + 2]
    binary, set_dir, qrels_file = args
    rel = {}
    for n, line in enumerate(open(os.path.join(set_dir, qrels_file), encoding='utf-8')):
        f = line.rstrip('\r\n').split('\t')
        if n == 0 or len(f) != 3 or f[2] == '0':
            continue
        rel.setdefault(f[0], set()).add(f[1])
    queries = {}
    for line in open(os.path.join(set_dir, 'queries.jsonl'), encoding='utf-8'):
        q = json.loads(line)
        if q['_id'] in rel:
            queries[q['_id']] = q['text']
    data = tempfile.mkdtemp(prefix='kb-eval-')
    try:
        evaluate(binary, set_dir, qrels_file, queries, rel, top, extra, data)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def evaluate(binary, set_dir, qrels_file, queries, rel, top, extra, data):
    env = dict(os.environ, WAYFINDER_DATA_DIR=data, OLLAMA_HOST='http://127.0.0.1:9')
    subprocess.run([binary, 'kb', 'import', os.path.join(set_dir, 'corpus.jsonl')], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    db = sqlite3.connect(os.path.join(data, 'wayfinder.db'))
    record = dict(db.execute('select id, record_id from kb_documents'))
    s5 = r5 = ndcg = r100 = 0.0
    times = []
    for qid in sorted(queries):
        t0 = time.monotonic()
        out = subprocess.run([binary, 'kb', 'search', '--json', '--top', str(top)] + extra + [queries[qid]],
                             env=env, check=True, capture_output=True, text=True).stdout
        times.append(time.monotonic() - t0)
        ranked = []
        for hit in json.loads(out) or []:
            rid = record.get(hit['id'].rsplit(':', 1)[0])
            if rid not in ranked:
                ranked.append(rid)
        want = rel[qid]
        s5 += bool(want & set(ranked[:5]))
        r5 += len(want & set(ranked[:5])) / len(want)
        r100 += len(want & set(ranked[:100])) / len(want)
        dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in want)
        idcg = sum(1 / math.log2(i + 2) for i in range(min(10, len(want))))
        ndcg += dcg / idcg
    n = len(queries)
    print(f'{set_dir} {qrels_file}: {n} queries, answer in top 5 {s5 / n:.4f}, recall@5 {r5 / n:.4f}, nDCG@10 {ndcg / n:.4f}, '
          f'recall@{min(top, 100)} {r100 / n:.4f}, median search process {statistics.median(times) * 1000:.0f} ms')


if __name__ == '__main__':
    main()
