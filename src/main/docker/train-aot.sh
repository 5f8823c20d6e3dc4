#!/usr/bin/env bash
# The training run of Engram's Java AOT cache (JEP 483/514/515): a few requests of every kind, so that the classes
# and method profiles of serving them, not only of starting, are in the cache. Run against an Engram started with
# -XX:AOTCacheOutput=app.aot on a throwaway PostgreSQL; stop that Engram with SIGTERM afterwards and the JVM writes
# the cache as it exits. Used by aot-training.sh (Dockerfile.jvm's training stage) and bench/run.
#
#   train-aot.sh <base URL> <operator key>
set -euo pipefail
URL=$1
KEY=$2
AUTH=(-H "Authorization: Bearer $KEY" -H 'Content-Type: application/json')
S=$URL/v1/stores/aot-training
# TRAIN_VERBOSE=1 prints each call's status, to check that the calls do what they should.
call() { local code; code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" || true)
  [ "${TRAIN_VERBOSE:-0}" = 1 ] && echo "$code ${*: -1}" >&2; return 0; }
for i in 1 2 3 4 5 6 7 8; do
  call "$URL/q/health/ready"; call "$URL/q/health/live"; call "$URL/q/health/started"
  call -X PUT "${AUTH[@]}" "$S/scopes/user/entries/style-$i" \
    -d '{"content": "Short answers.\n", "meta": {"description": "How the user likes answers"}}'
  call -X PATCH "${AUTH[@]}" "$S/scopes/user/entries/style-$i" -d '{"old_text": "Short", "new_text": "Brief"}'
  call "${AUTH[@]}" "$S/scopes/user/entries/style-$i"
  call "${AUTH[@]}" "$S/scopes/user/entries"
  call "${AUTH[@]}" "$S/render?scopes=user"
  call "${AUTH[@]}" "$S/search?q=brief"
  call "${AUTH[@]}" "$S/journal?after=0"
  call -X PUT "${AUTH[@]}" "$S/memories/tea-$i" \
    -d '{"bank": {"type": "user", "id": "training"}, "content": "Prefers tea to coffee", "importance": 0.7}'
  call -X POST "${AUTH[@]}" "$S/memories/search" -d '{"query": "tea", "banks": ["user:training"], "top_k": 5}'
  call -X PUT "${AUTH[@]}" "$S/contexts/run-$i" \
    -d '{"model": {"context_window": 8000, "output_limit": 1000}, "token_counter": "simple"}'
  call -X POST "${AUTH[@]}" "$S/contexts/run-$i/steps" \
    -d '{"steps": [{"thought": "Read the log.", "action": {"id": "c1", "name": "read_file", "input": {"path": "a"}},
         "observation": "error: missing semicolon", "cache": true}]}'
  call "${AUTH[@]}" "$S/contexts/run-$i/prompt"
  call -X POST "${AUTH[@]}" -H 'Accept: application/json, text/event-stream' "$URL/mcp?store=aot-training&scope=user" \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"training","version":"1"}}}'
  call -X PUT "${AUTH[@]}" "$S/scopes/user/entries/refused" -d '{"content": 1}'
  call "$URL/v1/stores/aot-training/scopes/user/entries/style-$i"
  call "${AUTH[@]}" "$URL/q/metrics"
done
