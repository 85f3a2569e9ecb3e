"""No action, built-in or user-registered, hands out the private answers or where they are stored."""

from __future__ import annotations

import dataclasses
import json
import os

from automind.env import ActionResult
from automind.task import Task


def _secrets(task_dir, h) -> list[str]:
    task = Task.load(task_dir)
    values = [str(h.secret(i)) for i in range(30, 42)]
    paths = [
        str(task.private_dir),
        os.path.realpath(task.private_dir),
        str(task.answers_path),
        str(task.root),
    ]
    return [*values, *paths, "answers.csv"]


def _dump(view) -> ActionResult:
    """A user action that reports everything its EnvView offers."""
    fields = {f.name: repr(getattr(view, f.name)) for f in dataclasses.fields(view)}
    info = dataclasses.asdict(view.info)
    return ActionResult(
        json.dumps(fields) + json.dumps(info, default=str), data={"info": info, "fields": fields}
    )


def test_every_action_is_free_of_answers_and_private_paths(make_env, regression_task, h):
    secrets = _secrets(regression_task, h)
    private = str(Task.load(regression_task).private_dir)
    env = make_env(regression_task)
    env.register_action("dump", _dump)
    env.register_action(
        "echo_path", lambda view: ActionResult(f"look at {private}/answers.csv", data={"p": private})
    )
    peek = f"print(open({private + '/answers.csv'!r}).read())\n"
    calls = [
        *(
            {"action": "request_info", "kind": k}
            for k in ("description", "sample_submission", "data", "output", "metric", "all")
        ),  # fmt: skip
        {"action": "validate_code", "code": "import os\nprint(os.listdir('input'), os.listdir('..'))\n"},
        {"action": "validate_code", "code": peek},
        {"action": "execute_code", "code": peek},
        {"action": "execute_code", "code": h.linear_script()},
        {"action": "execute_code", "code": "open('submission/submission.csv','w').write('id,y\\n1,2\\n')\n"},
        {
            "action": "execute_code",
            "code": "open('submission/submission.csv','w').write('id,y\\n' + "
            "''.join(f'{i},1\\n' for i in range(100, 112)))\n",
        },  # fmt: skip
        {"action": "get_history"},
        {"action": "dump"},
        {"action": "echo_path"},
        {"action": "reset"},
    ]
    seen = [env.reset()]
    for call in calls:
        obs, reward, term, trunc, info = env.step(call)
        seen.append((obs, reward, info))
    env.render_mode = "ansi"
    seen.append(env.render())
    text = json.dumps(seen, default=str)
    leaked = [s for s in secrets if s in text]
    assert not leaked, leaked
    assert (
        "<private>" in text
    )  # the sandbox's refusal and the custom action's path were redacted, not dropped
    assert "the task's private files are not accessible" in text


def test_the_view_holds_no_task_object_or_task_path(make_env, regression_task):
    from pathlib import Path

    env = make_env(regression_task)
    view = env._view
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        assert not isinstance(value, Task | Path), f.name
    flat = json.dumps(dataclasses.asdict(view.info), default=str)
    assert str(regression_task) not in flat and "private" not in flat
