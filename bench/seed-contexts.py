"""Seeds the context workloads through Engram's own REST API (bench/run calls it; Python 3 standard library only).

  ctx-big/run-1000        one context of 1,000 steps: the prompt workload reads it
  ctx-append/run-0..15    16 contexts of 500 steps each: the append workload adds steps to them

The steps look like an agent's: a thought, a tool call with a JSON input, an observation of a few lines, and every
third step's observation marked untrusted. Usage: python3 bench/seed-contexts.py URL TOKEN
"""
import json
import sys
import urllib.request

URL, TOKEN = sys.argv[1], sys.argv[2]


def call(method, path, body):
    request = urllib.request.Request(URL + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + TOKEN,
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        answer.read()


def step(i):
    lines = "\n".join(f"src/module{i % 7}/File{i}.java:{n}: line {n} of what the tool answered" for n in range(6))
    return {"thought": f"Step {i}: read the next file and check what it says about the failing build.",
            "action": {"id": f"call-{i}", "name": "read_file" if i % 2 else "grep",
                       "input": {"path": f"src/module{i % 7}/File{i}.java", "limit": 200}},
            "observation": lines, "untrusted": i % 3 == 0}


def seed(store, context, steps):
    base = f"/v1/stores/{store}/contexts/{context}"
    call("PUT", base, {"model": {"context_window": 1000000, "output_limit": 8000},
                       "strategy": {"name": "sliding_window"}})
    call("PUT", base + "/system-prompt", {"text": "You are a careful build engineer."})
    call("PUT", base + "/task", {"text": "Make the build pass."})
    for start in range(0, steps, 100):
        call("POST", base + "/steps", {"steps": [step(i) for i in range(start, min(start + 100, steps))]})


seed("ctx-big", "run-1000", 1000)
for n in range(16):
    seed("ctx-append", f"run-{n}", 500)
