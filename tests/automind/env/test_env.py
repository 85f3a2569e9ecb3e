"""TaskEnv follows gymnasium's API and MLE-Dojo's five actions, limits and rewards."""

from __future__ import annotations

import json

import pytest

from automind.env import ActionResult, Limits, TaskEnv


def test_gymnasium_env_checker_passes(make_env, binary_task):
    from gymnasium.utils.env_checker import check_env

    env = make_env(binary_task)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space and env.action_space.contains(
        {"action": "request_info", "kind": "metric"}
    )
    assert not env.action_space.contains({"action": "request_info", "kind": "nope"})
    assert not env.action_space.contains({"action": "execute_code"})  # code is required


def test_reset_observation_and_request_info_kinds(make_env, binary_task):
    env = make_env(binary_task)
    obs, info = env.reset()
    assert obs["action"] == "reset" and "Metric: accuracy (higher is better)" in obs["text"]
    assert "Tiny binary" in obs["text"] and info["steps_left"] == 15
    expect = {
        "description": "Predict y (0/1) from x",
        "sample_submission": "id,y",
        "data": "input/train.csv",
        "output": "submission/submission.csv",
        "metric": "accuracy (higher is better",
    }
    for kind, text in expect.items():
        obs, reward, term, trunc, info = env.step({"action": "request_info", "kind": kind})
        assert text in obs["text"] and obs["status"] == "ok" and reward == 0.0, kind
    data = env.step({"action": "request_info", "kind": "data"})[0]["text"]
    assert "20 rows; columns: id, x, y" in data  # sizes and layout
    everything = env.step({"action": "request_info"})[0]["text"]
    assert all(t in everything for t in expect.values())


def test_validate_code_checks_syntax_and_runs_briefly(make_env, binary_task, h):
    env = make_env(binary_task, limits=Limits(validate_timeout_s=1))
    env.reset()
    obs, *_ = env.step({"action": "validate_code", "code": "def f(:\n"})
    assert obs["status"] == "error" and "Syntax check failed" in obs["text"]
    obs, reward, *_ = env.step({"action": "validate_code", "code": "print('hello from the check')\n"})
    assert obs["status"] == "ok" and "hello from the check" in obs["text"] and reward == 0.0
    obs, *_ = env.step({"action": "validate_code", "code": "import nope_module\n"})
    assert obs["status"] == "error" and "ModuleNotFoundError" in obs["text"]
    obs, _, _, _, info = env.step({"action": "validate_code", "code": "import time\ntime.sleep(30)\n"})
    assert "stopped after 1 s" in obs["text"] and info["data"]["stopped_early"]
    obs, *_ = env.step({"action": "validate_code", "code": h.rule_script()})
    assert "not checked or scored here" in obs["text"]


def test_execute_code_grades_and_rewards(make_env, binary_task, h):
    env = make_env(binary_task)
    env.reset()
    obs, reward, term, trunc, info = env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    assert obs["status"] == "ok" and "Score: 1.0 (accuracy)" in obs["text"]
    assert reward == 1.0 and info["reward_kind"] == "baseline_improvement" and not term and not trunc
    assert info["reward"]["baseline"] is not None and "trivial baseline" in info["reward_note"]
    assert (env.workdir / "submissions" / "step-001.csv").is_file()
    _, worse, *_ = env.step({"action": "execute_code", "code": h.rule_script(0.8)})
    assert 0.0 <= worse < 1.0


@pytest.mark.parametrize(
    "code,outcome,text",
    [
        (
            "open('submission/submission.csv','w').write('id,z\\n1,2\\n')\n",
            "submission invalid",
            "missing column",
        ),
        ("print('nothing')\n", "submission not created", "wrote no submission/submission.csv"),
        ("raise ValueError('boom')\n", "execution failed", "ValueError: boom"),
        ("def f(:\n", "syntax error", "Not run: SyntaxError"),
    ],
)
def test_execute_code_feedback_when_it_fails(make_env, binary_task, code, outcome, text):
    env = make_env(binary_task)
    env.reset()
    obs, reward, _, _, info = env.step({"action": "execute_code", "code": code})
    assert obs["status"] == "error" and text in obs["text"] and reward == 0.0
    assert info["data"]["outcome"] == outcome and info["reward_kind"] == "none"


def test_human_rank_reward_averages_public_and_private_boards(make_env, binary_task, h):
    (binary_task / "leaderboard.csv").write_text("rank,score\n1,1.0\n2,0.9\n3,0.8\n4,0.7\n")
    env = make_env(binary_task)
    env.reset()
    _, reward, _, _, info = env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    assert info["reward_kind"] == "human_rank" and reward == pytest.approx(0.75)  # position 1 of 4
    (binary_task / "leaderboard_public.csv").write_text("rank,score\n1,1.0\n2,1.0\n")
    env = make_env(binary_task)
    env.reset()
    obs, reward, _, _, info = env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    assert info["reward"]["boards"] == {"private": 0.75, "public": 0.5} and reward == pytest.approx(0.625)
    assert (
        "position 1 of 4 (HumanRank 0.75)" in obs["text"] and "Public board: position 1 of 2" in obs["text"]
    )
    assert "averaged" in info["reward_note"]


def test_attached_leaderboard_and_no_answers(make_env, binary_task, h, tmp_path):
    lb = tmp_path / "lb.csv"
    lb.write_text("rank,score\n1,0.99\n2,0.5\n")
    env = make_env(binary_task, leaderboard=lb)
    env.reset()
    _, reward, _, _, info = env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    assert info["reward_kind"] == "human_rank" and reward == 0.5
    assert not (binary_task / "leaderboard.csv").exists()  # attached in memory only
    (binary_task / "private/answers.csv").unlink()
    env = make_env(binary_task)
    obs, _ = env.reset()
    obs, reward, _, _, info = env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    assert reward == 0.0 and info["reward_kind"] == "none" and "no private answers" in obs["text"]


def test_history_and_reset_action(make_env, binary_task, h):
    env = make_env(binary_task)
    env.reset()
    env.step({"action": "request_info", "kind": "metric"})
    env.step({"action": "execute_code", "code": h.rule_script(0.5)})
    obs, _, _, _, info = env.step({"action": "get_history"})
    assert "2 earlier step(s)" in obs["text"] and "score 1.0" in obs["text"]
    assert [s["action"] for s in info["data"]["history"]] == ["request_info", "execute_code"]
    assert info["data"]["history"][1]["args"] == {"code": "<7 lines>"}  # code is summarised, not echoed
    obs, _, _, _, info = env.step({"action": "reset"})
    assert obs["action"] == "reset" and "Episode reset" in obs["text"] and info["step"] == 0
    assert "No earlier steps" in env.step({"action": "get_history"})[0]["text"]


def test_step_limit_truncates_and_only_reset_continues(make_env, binary_task):
    env = make_env(binary_task, limits=Limits(max_steps=2))
    env.reset()
    assert env.step({"action": "get_history"})[3] is False
    obs, _, term, trunc, info = env.step({"action": "get_history"})
    assert trunc and not term and "step limit of 2 reached" in obs["text"] and info["steps_left"] == 0
    obs, _, _, trunc, _ = env.step({"action": "request_info"})
    assert trunc and "episode is over" in obs["text"]
    obs, _, _, trunc, _ = env.step({"action": "reset"})
    assert not trunc and env.step({"action": "get_history"})[3] is False


def test_time_limit_truncates_and_caps_executions(make_env, binary_task):
    now = [0.0]
    env = make_env(binary_task, limits=Limits(time_limit_s=100), clock=lambda: now[0])
    env.reset()
    now[0] = 99.0  # one second left: the execution is capped to it
    obs, _, _, trunc, _ = env.step({"action": "execute_code", "code": "import time\ntime.sleep(5)\n"})
    assert "timed out after 1 s" in obs["text"]
    now[0] = 101.0
    obs, _, _, trunc, info = env.step({"action": "request_info"})
    assert trunc and "time limit of 100 s reached" in obs["text"] and info["truncated_by"]


def test_execution_limits_are_reported_not_episode_ending(make_env, binary_task):
    env = make_env(binary_task, limits=Limits(exec_timeout_s=1, memory_mb=300))
    env.reset()
    obs, _, _, trunc, info = env.step({"action": "execute_code", "code": "while True: pass\n"})
    assert not trunc and info["data"]["status"] == "timeout" and "execution failed" in obs["text"]
    obs, _, _, trunc, info = env.step(
        {"action": "execute_code", "code": "x = bytearray(900 * 2**20)\nimport time; time.sleep(2)\n"}
    )
    assert not trunc and info["data"]["status"] == "memory"


def test_bad_actions_are_observations(make_env, binary_task):
    env = make_env(binary_task)
    env.reset()
    for action, text in [
        ({"action": "fly"}, "Unknown action 'fly'"),
        ({"action": "request_info", "kind": "everything"}, "must be one of"),
        ({"action": "execute_code"}, "missing required argument 'code'"),
        ({"action": "get_history", "colour": 1}, "unknown argument 'colour'"),
        ("request_info", "An action is a dict"),
        ({"kind": "data"}, "needs an 'action' key"),
    ]:
        obs, reward, _, _, info = env.step(action)
        assert obs["status"] == "error" and text in obs["text"] and reward == 0.0, action
        assert obs in env.observation_space
    assert env.steps_used == 6


def test_registry_decorator_and_register_action(make_env, binary_task, h):
    from automind.env import action
    from automind.env.actions import REGISTRY

    @action("count_rows", description="How many test rows.", parameters={"type": "object", "properties": {}})
    def count_rows(env):
        return ActionResult(f"{env.info.sample_rows} rows")

    try:
        env = make_env(binary_task)
        env.register_action(
            "shout",
            lambda env, word: ActionResult(word.upper()),
            {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
            "Repeat a word loudly.",
        )
        env.register_action("broken", lambda env: 1 / 0)
        env.reset()
        assert env.step({"action": "count_rows"})[0]["text"] == "20 rows"
        assert env.step({"action": "shout", "word": "hi"})[0]["text"] == "HI"
        obs = env.step({"action": "broken"})[0]
        assert obs["status"] == "error" and "ZeroDivisionError" in obs["text"]
        tools = env.tools()
        names = [t["function"]["name"] for t in tools]
        assert names[:5] == ["request_info", "validate_code", "execute_code", "get_history", "reset"]
        assert {"count_rows", "shout", "broken"} <= set(names)
        assert all(t["type"] == "function" and t["function"]["parameters"]["type"] == "object" for t in tools)
        json.dumps(tools)  # ready for an LLM request
        assert "shout" not in make_env(binary_task).actions  # register_action is per environment
    finally:
        REGISTRY.pop("count_rows", None)
    with pytest.raises(ValueError, match="lower_snake_case"):
        env.register_action("Bad Name", lambda env: ActionResult(""))
    with pytest.raises(ValueError, match="type 'object'"):
        env.register_action("ok_name", lambda env: ActionResult(""), {"type": "string"})


def test_custom_action_can_run_and_execute_code(make_env, binary_task, h):
    def best_of_two(env, a: float, b: float) -> ActionResult:
        runs = [env.execute(h.rule_script(t)) for t in (a, b)]
        best = max(runs, key=lambda r: r.reward.value)
        return ActionResult(f"best score {best.score}", data={"score": best.score}, reward=best.reward)

    env = make_env(binary_task)
    schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}
    env.register_action("best_of_two", best_of_two, schema)
    env.reset()
    obs, reward, *_ = env.step({"action": "best_of_two", "a": 0.9, "b": 0.5})
    assert obs["text"] == "best score 1.0" and reward == 1.0


def test_task_env_accepts_a_path_and_rejects_bad_limits(binary_task, settings, tmp_path):
    with pytest.raises(ValueError, match="max_steps"):
        Limits(max_steps=0)
    env = TaskEnv(str(binary_task), settings=settings, render_mode="ansi")
    obs, _ = env.reset()
    env.step({"action": "request_info", "kind": "metric"})
    assert "accuracy" in env.render()
    wd = env.workdir
    env.close()
    assert not wd.exists()  # its own temporary folder is removed
