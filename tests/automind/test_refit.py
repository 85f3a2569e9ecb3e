"""The final refit of a blend: which nodes a script reads, pointing it at their refits, the chain and its time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from automind.refit import referenced_nodes, refit_chain, refit_seconds, relocate, repoint
from automind.search.journal import Journal, MetricValue, Node


def test_node_folders_are_found_and_repointed_without_touching_longer_names(tmp_path: Path):
    nodes = (tmp_path / "nodes").resolve()
    code = (f"a = '{nodes}/1/submission/oof.npy'\nb = r'{nodes}/10'\nc = '{nodes}/1'\n"
            f"d = '{nodes}/1x/oof.npy'\ne = '{tmp_path.resolve()}/other/2'\n")  # fmt: skip
    assert referenced_nodes(code, tmp_path) == ["1", "10"]
    moved = repoint(code, tmp_path)
    assert f"'{nodes}/1/refit/submission/oof.npy'" in moved and f"r'{nodes}/10/refit'" in moved
    assert f"'{nodes}/1/refit'\n" in moved and f"'{nodes}/1x/oof.npy'" in moved  # not a node folder: kept
    assert repoint("print(1)", tmp_path) == "print(1)"


def test_a_moved_run_is_relocated_node_folder_by_node_folder(tmp_path: Path):
    """Only OLD/nodes/<id> paths move; a longer name, another folder under OLD, and other text stay."""
    old, here = "/data/old/run", tmp_path / "run"
    code = (f"a = '{old}/nodes/3/submission/oof.npy'\nb = '{old}/nodes/3x'\nc = '{old}/holdout/x'\n"
            f"d = '/data/old/run2/nodes/4'\n")  # fmt: skip
    out = relocate(code, old, here)
    assert f"a = '{(here / 'nodes').resolve()}/3/submission/oof.npy'" in out
    assert f"'{old}/nodes/3x'" in out and f"'{old}/holdout/x'" in out and "'/data/old/run2/nodes/4'" in out
    assert referenced_nodes(out, here) == ["3"] and referenced_nodes(code, here) == []


def _valid(j: Journal, code: str, exec_s: float, **kw) -> Node:
    return j.append(Node(code=code, metric=MetricValue(0.5), is_buggy=False, timings={"exec": exec_s}, **kw))


def test_the_chain_refits_what_a_blend_reads_first_and_its_time_adds_up(tmp_path: Path):
    nodes = (tmp_path / "nodes").resolve()
    j = Journal(lower_is_better=False)
    a, b = _valid(j, "fit()", 10.0), _valid(j, "fit()", 20.0)
    blend = _valid(j, f"read('{nodes}/1'); read('{nodes}/0')", 2.0, action="ensemble")
    chain = refit_chain(j, tmp_path, blend)
    assert chain == [b, a, blend]
    assert refit_seconds(chain, 80, 100) == 32.0 * 100 / 80  # every run scaled to all training rows
    assert refit_chain(j, tmp_path, a) == [a]
    nested = _valid(j, f"read('{nodes}/2')", 1.0, action="ensemble")
    assert "itself blends" in str(refit_chain(j, tmp_path, nested))
    j.get("1").is_buggy = True
    assert "holds no valid solution" in str(refit_chain(j, tmp_path, blend))


def test_refit_bags_take_what_fits_in_full_and_only_for_recipe_scripts(tmp_path: Path):
    """A single refit starts by the search's rule (its estimate within the cap, half of it left); more fold
    shuffles only when all of them fit both the cap and the time left; LLM scripts never read the setting."""
    from automind.refit import refit_bags

    j = Journal(lower_is_better=False)
    recipe = [_valid(j, "fit()", 10.0, roles="recipes")]
    assert refit_bags(recipe, 20.0, 150.0, 400.0, 3) == 3  # 60 s within the 150 s cap and 400 s left
    assert refit_bags(recipe, 20.0, 50.0, 400.0, 3) == 2  # the cap holds two
    assert refit_bags(recipe, 20.0, 150.0, 45.0, 3) == 2  # the time left holds two
    assert refit_bags(recipe, 20.0, 150.0, 15.0, 3) == 1  # one still starts with half its time left
    assert refit_bags(recipe, 20.0, 150.0, 9.0, 3) == 0  # less than half: none
    assert refit_bags(recipe, 40.0, 30.0, 400.0, 3) == 0  # over the cap: none (skipped, as before)
    assert refit_bags(recipe, 20.0, 150.0, 400.0, 1) == 1  # verify.refit_bags = 1: once
    assert refit_bags(recipe, 20.0, float("inf"), float("inf"), 3) == 3  # no time limit
    mixed = [*recipe, _valid(j, "fit()", 10.0, roles="llm")]
    assert refit_bags(mixed, 20.0, 150.0, 400.0, 3) == 1


def test_an_offline_blend_refits_only_the_members_its_weights_use(tmp_path: Path):
    """Greedy selection gave node 1 no weight: its refit is skipped (the blend leaves it out); a script that
    is not automind's ensemble, or weights naming fewer than two members, refit every member."""
    from automind.recipes.ensemble import ENSEMBLE_TAG

    nodes = (tmp_path / "nodes").resolve()
    j = Journal(lower_is_better=False)
    a, b, c = _valid(j, "fit()", 10.0), _valid(j, "fit()", 20.0), _valid(j, "fit()", 5.0)
    code = f"# {ENSEMBLE_TAG} caruana of nodes 0, 1, 2\nread('{nodes}/0'); read('{nodes}/1'); read('{nodes}/2')\n"
    weights = {"node 0": 0.6, "node 1": 0.0, "node 2/lgbm": 0.25, "node 2/catboost": 0.15}
    blend = _valid(j, code, 1.0, action="ensemble", ensemble={"members": ["0", "1", "2"], "weights": weights})
    assert refit_chain(j, tmp_path, blend) == [a, c, blend]
    assert refit_seconds(refit_chain(j, tmp_path, blend), 1, 1) == 16.0  # node 1's 20 s are not needed
    blend.ensemble["weights"] = {
        "node 0": 1.0,
        "node 1": 0.0,
        "node 2": 0.0,
    }  # one member: the script needs two
    assert refit_chain(j, tmp_path, blend) == [a, b, c, blend]
    blend.ensemble["weights"] = weights
    blend.code = code.replace(
        ENSEMBLE_TAG, "my blend:"
    )  # an LLM's script: what its weights mean is not known
    assert refit_chain(j, tmp_path, blend) == [a, b, c, blend]


def _portfolio(run: Path, node_id: str, weights: dict[str, float], seconds: dict[str, float]) -> None:
    sub = run / "nodes" / node_id / "submission"
    sub.mkdir(parents=True)
    data = {"metric": "rmse", "lower_is_better": True, "combined": 1.0, "members": dict.fromkeys(seconds, 1.0),
            "seconds": seconds, "weights": weights}  # fmt: skip
    (sub / "members.json").write_text(json.dumps(data))


def test_a_portfolio_refit_fits_and_is_timed_by_the_models_its_ensembles_weight(tmp_path: Path):
    """The best recipe script refits the models its own ensemble weighted, and its estimate drops the others'
    seconds; a node a blend reads refits what the blend uses of it; unknown weights, an unreadable file or
    another author's script: every model, the whole run's time."""
    from automind.recipes.ensemble import ENSEMBLE_TAG
    from automind.refit import refit_members

    nodes = (tmp_path / "nodes").resolve()
    j = Journal(lower_is_better=True)
    a = _valid(j, "fit()", 40.0, roles="recipes")
    b = _valid(j, "fit()", 30.0, roles="recipes")
    _portfolio(tmp_path, "0", {"lgbm": 0.3, "cat": 0.7, "et": 0.0}, {"lgbm": 5.0, "cat": 15.0, "et": 12.0})
    _portfolio(tmp_path, "1", {"lgbm": 1.0, "rf": 0.0}, {"lgbm": 8.0, "rf": 20.0})
    assert refit_members(tmp_path, a, a) == ["cat", "lgbm"]
    assert refit_seconds([a], 80, 100, tmp_path, a) == pytest.approx((40.0 - 12.0) * 100 / 80)
    assert refit_seconds([a], 80, 100) == 50.0  # no run folder: the whole run
    assert refit_members(tmp_path, None, a) is None  # an ensemble not built yet may use any model

    code = f"# {ENSEMBLE_TAG} caruana-members of nodes 0, 1\nread('{nodes}/0'); read('{nodes}/1')\n"
    weights = {"node 0": 0.5, "node 0/et": 0.2, "node 1/rf": 0.3, "node 1/lgbm": 0.0, "node 1": 0.0}
    blend = _valid(j, code, 1.0, action="ensemble", ensemble={"weights": weights}, roles="recipes")
    assert refit_members(tmp_path, blend, a) == ["cat", "et", "lgbm"]  # its combination and its et
    assert refit_members(tmp_path, blend, b) == ["rf"]
    chain = refit_chain(j, tmp_path, blend)
    assert refit_seconds(chain, 1, 1, tmp_path, blend) == pytest.approx(40.0 + (30.0 - 8.0) + 1.0)

    blend.ensemble = {"weights": {"node 0": 0.5, "node 1/xgb": 0.5}}  # a model node 1's file does not time
    assert refit_members(tmp_path, blend, b) is None
    b.roles = "llm"  # another author's members.json is not trusted
    assert refit_members(tmp_path, b, b) is None
    (tmp_path / "nodes/0/submission/members.json").write_text("{not json")
    assert refit_members(tmp_path, a, a) is None and refit_seconds([a], 1, 1, tmp_path, a) == 40.0


def test_a_refit_script_gets_its_share_of_the_time_when_the_chain_does_not_fit_in_full():
    from automind.refit import script_limit

    assert script_limit(20.0, 10.0, 5.0) == 15.0  # room for all: what the later scripts leave
    assert script_limit(10.0, 10.0, 20.0) == pytest.approx(10 / 3)  # short: its share, not the 1 s floor
    assert script_limit(0.5, 10.0, 20.0) == 1.0
