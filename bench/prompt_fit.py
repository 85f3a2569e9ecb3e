"""Do the role prompts fit a model's context window? Rendered for a real task, counted for real.

Builds the prompts a run would send for TASK (the data analysis, the offline knowledge, the sandbox's
libraries and hardware, a parent script of your choice, and run memory / experience / lineage sized
like a long run's) through LLMRoles with a model that only records, at `--context` tokens. For each
prompt it prints the characters sent, automind's token estimate, the real token count when a
llama.cpp server is given (its /extras/tokenize endpoint, no generation), the budget, and the
sections cut. Example, against the server of `automind llm local-setup`:
    python bench/prompt_fit.py penguins --script runs/x/best_solution.py --context 4096 \
        --tokenize-url http://127.0.0.1:8765
Not run by the tests.
"""

from __future__ import annotations

import argparse
import json
import urllib.request
from pathlib import Path


def real_tokens(url: str | None, messages: list[dict]) -> int | None:
    """Tokens of the messages' text under the server's own tokenizer (None without a server)."""
    if not url:
        return None
    text = "\n".join(m["content"] for m in messages)
    req = urllib.request.Request(
        url.rstrip("/") + "/extras/tokenize",
        data=json.dumps({"input": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=600) as resp:
        return len(json.loads(resp.read())["tokens"])


def main() -> None:
    from automind import environment
    from automind.analysis import analyze
    from automind.config import load_config
    from automind.llm.budget import estimate_tokens, reply_reserve
    from automind.llm.client import LLM, Reply, Usage
    from automind.llm.roles import LLMRoles
    from automind.roles import Context, Plan, Step
    from automind.run_setup import load_knowledge, resolve_task

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("task", help="task folder or bundled example name")
    ap.add_argument("--script", type=Path, required=True, help="a solution script used as the parent code")
    ap.add_argument("--context", type=int, default=4096)
    ap.add_argument("--tokenize-url", help="llama.cpp server root, e.g. http://127.0.0.1:8765")
    ap.add_argument("--store", help="knowledge store (default: the configured one)")
    ap.add_argument("--send-largest", action="store_true",
                    help="also send the largest prompt to the server (32 reply tokens) to see it accepted")  # fmt: skip
    args = ap.parse_args()

    overrides = {"llm.context_tokens": args.context, "llm.provider": "none"}
    if args.store:
        overrides["knowledge.store"] = args.store
    settings = load_config(overrides).settings
    task = resolve_task(args.task)
    analysis = analyze(task)
    notes: list[str] = []
    knowledge = load_knowledge(task, analysis, settings, None, notes)
    facts = environment.prompt_facts(environment.probe(), settings)
    code = args.script.read_text(encoding="utf-8")

    class Recorder(LLM):
        provider = "recorder"

        def __init__(self, cfg):
            super().__init__(cfg)
            self.sent: list[tuple[str, list[dict]]] = []

        def _complete(self, req) -> Reply:
            self.sent.append((req.role, req.messages))
            args_ = {"decomposed steps": [{"step": "s", "details": "d"}], "is_bug": False}
            return Reply("<plan>p</plan>\n```python\nx = 1\n```", args_, Usage(0, 0))

    llm = Recorder(settings.llm)
    roles = LLMRoles(llm, settings)
    memory = [
        f"tried idea number {i} with a longer description of what changed -> validation 0.8{i}"
        for i in range(12)
    ]
    error = (
        "Traceback (most recent call last):\n"
        + '  File "solution.py", line 40, in <module>\n' * 30
        + "KeyError: 'x'"
    )
    base = dict(task=task, analysis=analysis.render(), facts=facts, labels=knowledge.labels, memory=memory,
                experience=["Helped before: trick 'target encoding' improved the metric by +0.012"] * 4,
                time_left_s=1800.0, exec_timeout_s=600.0)  # fmt: skip
    parent = dict(parent_plan="Gradient boosting on all columns.", parent_code=code, parent_output=error)
    lineage = [{"id": str(i), "action": "debug", "plan": "cast the ids", "analysis": "ids are text", "error": "KeyError"}
               for i in range(3)]  # fmt: skip
    plan = Plan("Gradient boosting with 5-fold CV on all columns; target-encode categoricals.")
    steps = [Step("load", "read"), Step("features", "encode"), Step("train", "fit and predict")]
    roles.plan(Context(action="draft", knowledge=[*knowledge.tips, *knowledge.papers], **base))
    roles.complexity(Context(action="draft", **base), plan)
    roles.code(Context(action="draft", knowledge=knowledge.tips, **base), plan)
    roles.plan(Context(action="improve", **base, **parent))
    roles.code(Context(action="improve", **base, **parent), plan)
    roles.plan(Context(action="debug", lineage=lineage, **base, **parent))
    roles.decompose(Context(action="draft", **base), plan)
    roles.step_code(Context(action="draft", **base), plan, steps, 2, code[: len(code) // 2])
    roles.repair(Context(action="draft", **base), code, error)

    limit = args.context - reply_reserve(args.context, None)
    print(f"context {args.context} tokens, prompt budget {limit} (reply reserve {args.context - limit})")
    print(f"{'role':9} {'chars':>7} {'estimate':>8} {'real':>6}  fits")
    for role, messages in llm.sent:
        chars = sum(len(m["content"]) for m in messages)
        est = sum(estimate_tokens(m["content"]) for m in messages)
        real = real_tokens(args.tokenize_url, messages)
        fits = (real if real is not None else est) <= limit
        print(
            f"{role:9} {chars:7d} {est:8d} {real if real is not None else '-':>6}  {'yes' if fits else 'NO'}"
        )
    for note in [*notes, *roles.notes]:
        print("note:", note)
    if args.send_largest and args.tokenize_url:
        role, messages = max(llm.sent, key=lambda rm: sum(len(m["content"]) for m in rm[1]))
        body = {"messages": messages, "max_tokens": 32, "temperature": 0}
        req = urllib.request.Request(
            args.tokenize_url.rstrip("/") + "/v1/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=3600) as resp:
            usage = json.loads(resp.read())["usage"]
        print(f"sent the largest ({role}) prompt: accepted, {usage['prompt_tokens']} prompt tokens")


if __name__ == "__main__":
    main()
