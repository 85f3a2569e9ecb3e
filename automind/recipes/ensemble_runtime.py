"""The code an offline ensemble script carries besides runtime.py's sections: load the members' saved
predictions, fit the combination on out-of-fold predictions only, save the weights.

`automind/recipes/ensemble.py` pastes the `ensemble` section below after runtime.py's `imports`, `load`
and `model` sections (the `stubs` section only gives lint and tests the names those sections define).
Test-set predictions never reach a fitting function here: `fit_combination` sees out-of-fold predictions
and targets only, and test predictions are combined with what it returned.
"""

# %% stubs
from __future__ import annotations

from automind.recipes.runtime import (  # noqa: F401 - the names the pasted sections provide
    CFG,
    Path,
    balance_priors,
    blend,
    caruana_weights,
    clip_log_error,
    clip_to_range,
    cross_fit,
    decode_grades,
    encode_target,
    kfold,
    load_data,
    log,
    np,
    report,
    tune_class_scales,
    tune_threshold,
    write_submission,
)

# %% ensemble
METHODS = ("caruana", "caruana-members", "stack", "mean")


def load_members(y, n_test):
    """The members' saved predictions (submission/oof.npy, test_pred.npy, y.npy) that cover the same training
    rows with the same target encoding as this script; with method caruana-members, also each member's own
    portfolio models (members.npz). A member that does not match is left out with a log line."""
    out = []
    for m in CFG["ensemble"]["members"]:
        d = Path(m["dir"])
        try:
            oof, test, ys = (
                np.load(d / "oof.npy"),
                np.load(d / "test_pred.npy"),
                np.load(d / "y.npy", allow_pickle=True),
            )
        except (OSError, ValueError) as e:
            log(f"member {m['id']}: no saved predictions ({type(e).__name__}); left out")
            continue
        if ys.shape != np.shape(y) or not np.all(ys == y) or len(test) != n_test or len(oof) != len(y):
            log(f"member {m['id']}: its predictions cover other rows or another target encoding; left out")
            continue
        out.append({"name": f"node {m['id']}", "oof": oof, "test": test})
        npz = d / "members.npz"
        if CFG["ensemble"]["method"] == "caruana-members" and npz.is_file():
            saved = np.load(npz)
            for key in saved.files:
                name = key[len("oof__") :]
                if key.startswith("oof__") and f"test__{name}" in saved.files:
                    o, t = saved[key], saved[f"test__{name}"]
                    if o.shape == oof.shape and t.shape == test.shape:
                        out.append({"name": f"node {m['id']}/{name}", "oof": o, "test": t})
    return out


def _stack_features(preds):
    """Columns of a linear meta-model: the predictions, as log-odds for probabilities."""
    A = np.column_stack([np.reshape(p, (len(p), -1)) for p in preds])
    if CFG["problem"] != "regression":
        A = np.log(np.clip(A, 1e-6, 1 - 1e-6) / np.clip(1 - A, 1e-6, 1))
    return A


def _stack_fit(preds, y):
    from sklearn.linear_model import LogisticRegression, Ridge

    A = _stack_features(preds)
    model = Ridge(alpha=1.0) if CFG["problem"] == "regression" else LogisticRegression(C=1.0, max_iter=2000)
    return model.fit(A, y)


def _stack_apply(model, preds):
    A = _stack_features(preds)
    return model.predict(A) if CFG["problem"] == "regression" else model.predict_proba(A)[:, 1]


def fit_combination(method, oofs, y):
    """The combination fitted on out-of-fold predictions `oofs` and targets `y` only: weights summing to 1
    (caruana, caruana-members, mean) or a fitted linear meta-model (stack)."""
    if method == "stack":
        return _stack_fit(oofs, y)
    if method == "mean":
        return np.ones(len(oofs)) / len(oofs)
    return caruana_weights(oofs, y)


def apply_combination(method, fitted, preds):
    return _stack_apply(fitted, preds) if method == "stack" else blend(fitted, preds)


def combine_members(members, y, splits, method):
    """(out-of-fold, test predictions, weight per member name). The out-of-fold result is cross-fitted (each
    fold combined by a fit on the other folds), so its score is honest; the test predictions use the fit on
    all out-of-fold rows. Stacking reports its meta-model's coefficients as the weights."""
    if method == "stack" and (CFG["problem"] not in ("binary", "regression") or np.ndim(y) != 1):
        log(f"stacking needs one binary or numeric target; using caruana for this {CFG['problem']} task")
        method = "caruana"
    oofs, tests = [m["oof"] for m in members], [m["test"] for m in members]
    oof, fitted = cross_fit(lambda P, t: fit_combination(method, P, t),
                            lambda f, P: apply_combination(method, f, P), oofs, y, splits)  # fmt: skip
    test_pred = apply_combination(method, fitted, tests)
    coef = np.ravel(fitted.coef_) if method == "stack" else np.asarray(fitted, dtype=float)
    weights = {m["name"]: round(float(w), 6) for m, w in zip(members, coef, strict=True)}
    log("ensemble weights " + ", ".join(f"{k} {w:.3f}" for k, w in weights.items() if w))
    return oof, test_pred, weights, method


def finish_predictions(oof, test_pred, y, splits):
    """The post-processing every recipe script ends with, cross-fitted on out-of-fold predictions."""
    if CFG["kind"] == "label":
        oof, test_pred = tune_threshold(oof, test_pred, y, splits, CFG)
        oof, test_pred = tune_class_scales(oof, test_pred, y, splits, CFG)
    oof, test_pred = balance_priors(oof, test_pred, y, splits, CFG)
    if CFG["metric"] == "quadratic_weighted_kappa":
        oof, test_pred = decode_grades(oof, test_pred, y, splits, CFG)
    if CFG["problem"] == "regression":
        oof, test_pred = clip_to_range(oof, test_pred, y, splits, CFG)
    return clip_log_error(oof, test_pred, y)


def save_weights(method, weights):
    """submission/ensemble.json: the method and each member's weight (the search shows them in the report)."""
    import json

    out = Path(CFG["out"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "ensemble.json").write_text(json.dumps({"method": method, "weights": weights}, indent=1))


def run_ensemble():
    """The whole script: members in, submission, score, predictions and weights out."""
    train, test, sample = load_data()
    y = encode_target(train)
    members = load_members(y, len(test))
    if len(members) < 2:
        raise RuntimeError(
            f"an ensemble needs two members with matching saved predictions; found {len(members)}"
        )
    splits = kfold(y, CFG, CFG["folds"])
    oof, test_pred, weights, method = combine_members(members, y, splits, CFG["ensemble"]["method"])
    oof, test_pred = finish_predictions(oof, test_pred, y, splits)
    report(y, oof, test_pred)
    save_weights(method, weights)
    write_submission(test, sample, test_pred)
