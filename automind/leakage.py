"""A deterministic check of a solution script for the common ways validation scores leak (plain `ast`).

Findings, each with the line it is on:
- `fit-on-test`: a preprocessor (scaler, encoder, imputer, selector, vectoriser, decomposition) fitted on
  data that includes rows read from the test file;
- `fit-before-split`: a preprocessor fitted on all rows outside any fold loop, whose output is then split
  into training and validation rows (train_test_split, cross_val_*, `.split(...)`, a *CV estimator);
- `target-stats`: a statistic of the target grouped by a key (`groupby(...)[target]`) computed on the whole
  training table outside the folds and written into training rows (test-only use is fine);
- `target-feature`: the features passed to a model keep the target column, or a column computed from it;
- `test-early-stopping`: an early-stopping / evaluation set built from the test file;
- `hardcoded-metric`: the validation score written or printed as a literal number.

How: statements are walked in order, per scope (module, each function). Every name carries its *origins*:
the files its value was read from (a read call whose arguments mention "train" or "test"), the
preprocessor fits it went through, the target statistics it holds. Function parameters carry none, so
helpers called once per fold (the recipes' helpers) are not flagged; code inside a loop over folds (`for
... in kf.split(...)`, or any loop over something named *fold*/*split*) is inside the folds. The check
looks at code, not data: it is a first line, and the holdout's score gap (automind.holdout.band) is
the runtime evidence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

PREPROCESSOR = re.compile(
    r"(Scaler|Normalizer|Encoder|Imputer|Vectorizer|Transformer|Discretizer|PCA|SVD|NMF|SelectKBest|"
    r"SelectPercentile|SelectFromModel|RFE|RFECV|VarianceThreshold|GenericUnivariateSelect|FeatureSelector|"
    r"Binarizer|PolynomialFeatures)$"
)
SPLITTERS = {"train_test_split", "cross_val_score", "cross_validate", "cross_val_predict", "learning_curve"}
CV_ESTIMATOR = re.compile(r"(SearchCV|CV)$")
# coders that learn only the set of levels (no statistic of the values): fitting them on all training rows
# before the split is not flagged (fitting them on test rows still is)
VOCABULARY_CODER = re.compile(r"^(Label|MultiLabel|Ordinal|OneHot)(Encoder|Binarizer)$")
READERS = {"read_csv", "read_parquet", "read_table", "read_json", "read_feather", "read_pickle", "load",
           "loadtxt", "genfromtxt", "read_excel", "read_fwf"}  # fmt: skip
EVAL_KEYWORDS = {"eval_set", "valid_sets", "validation_data", "eval_sets", "evals", "validation_set"}
FOLD_WORDS = re.compile(r"fold|split|(^|_)cv($|_)|kf", re.I)
METRIC_WORDS = re.compile(
    r"(?i)\b(valid\w*|val|cv|oof|score|metric|auc|rmse|rmsle|mae|mse|log ?loss|accuracy|acc|f1|kappa|r2|gini)\b"
)
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
DROP_METHODS = {"fillna", "copy", "astype", "reset_index", "replace", "sort_index", "values", "to_numpy",
                "infer_objects", "convert_dtypes", "clip", "round", "abs"}  # fmt: skip


@dataclass(frozen=True)
class LeakFinding:
    kind: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.kind}: {self.message}"


@dataclass
class _Fit:
    line: int
    what: str
    in_folds: bool


@dataclass
class _Scope:
    origins: dict[str, set[str]] = field(default_factory=dict)  # name -> "file:train", "fit:N", "tstat:N"
    defs: dict[str, list[tuple[int, ast.expr]]] = field(
        default_factory=dict
    )  # name -> (line, value) in order
    strings: dict[str, set[str]] = field(default_factory=dict)  # name -> string constants in its value
    kinds: dict[str, str] = field(default_factory=dict)  # name -> constructor name (StandardScaler, ...)
    popped: dict[str, set[str]] = field(default_factory=dict)  # frame name -> columns popped from it
    derived: dict[str, int] = field(default_factory=dict)  # column computed from the target -> line


def _name(node: ast.AST) -> str | None:
    """The called name: `f` for f(...), `attr` for x.attr(...)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _base(node: ast.AST) -> str | None:
    """The variable an expression starts from: `train` for train["x"].fillna(0).values."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        else:
            return None


def _walk(node: ast.AST) -> list[ast.AST]:
    """The nodes ast.walk yields, in its order, as a list: its nested generators were most of the check's
    time on the recipes' long scripts, and a list can be kept and walked again."""
    out = [node]
    i = 0
    while i < len(out):
        n = out[i]
        i += 1
        for f in n._fields:
            v = getattr(n, f, None)
            if isinstance(v, ast.AST):
                out.append(v)
            elif isinstance(v, list):
                out.extend(x for x in v if isinstance(x, ast.AST))
    return out


def _strings(nodes: Iterable[ast.AST]) -> set[str]:
    return {n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _names(nodes: Iterable[ast.AST]) -> set[str]:
    return {n.id for n in nodes if isinstance(n, ast.Name)}


class _Checker:
    def __init__(self, targets: Iterable[str]):
        self.targets: set[str] = {t for t in targets if t}
        self.findings: dict[tuple[str, int], LeakFinding] = {}
        self.fits: dict[str, _Fit] = {}
        self._nodes: dict[int, list[ast.AST]] = {}  # id(node) -> _walk(node); the tree outlives the check

    def nodes(self, node: ast.AST) -> list[ast.AST]:
        """_walk(node), once per node: a value is walked for its origins, strings, names and calls."""
        found = self._nodes.get(id(node))
        if found is None:
            found = self._nodes[id(node)] = _walk(node)
        return found

    # -- reporting -------------------------------------------------------------------------------------------
    def add(self, kind: str, line: int, message: str) -> None:
        self.findings.setdefault((kind, line), LeakFinding(kind, line, message))

    # -- expressions ----------------------------------------------------------------------------------------
    def origins(self, node: ast.AST, sc: _Scope, in_folds: bool) -> set[str]:
        """Where a value comes from: names' origins, files read, preprocessor fits, target statistics."""
        out: set[str] = set()
        for n in self.nodes(node):
            if isinstance(n, ast.Name):
                out |= sc.origins.get(n.id, set())
            elif isinstance(n, ast.Call):
                out |= self.call_origins(n, sc, in_folds)
            elif isinstance(n, ast.Subscript) and self.is_target_stat(n, sc) and not in_folds:
                out.add(f"tstat:{n.lineno}")
        return out

    def call_origins(self, call: ast.Call, sc: _Scope, in_folds: bool) -> set[str]:
        name = _name(call.func)
        out: set[str] = set()
        if name in READERS:
            text = set().union(
                *(self.mentions(a, sc) for a in [*call.args, *(k.value for k in call.keywords)])
            )
            low = " ".join(text).lower()
            if "train" in low:
                out.add("file:train")
            elif "test" in low and "sample" not in low:
                out.add("file:test")
        if name in ("fit_transform", "fit") and isinstance(call.func, ast.Attribute):
            what = self.preprocessor(call.func.value, sc)
            if what and call.args:
                out.add(self.fit(call, what, sc, in_folds))
        if name == "agg" and self.groupby_agg_target(call, sc) and not in_folds:
            out.add(f"tstat:{call.lineno}")
        return out

    def mentions(self, node: ast.AST, sc: _Scope) -> set[str]:
        """String constants in an expression, and in the values of the names it uses (one level)."""
        found = self.nodes(node)
        text = _strings(found)
        for n in _names(found):
            text |= sc.strings.get(n, set())
        return text

    def preprocessor(self, receiver: ast.AST, sc: _Scope) -> str | None:
        if isinstance(receiver, ast.Call):
            name = _name(receiver.func)
        elif isinstance(receiver, ast.Name):
            name = sc.kinds.get(receiver.id)
        else:
            name = None
        return name if name and PREPROCESSOR.search(name) else None

    def fit(self, call: ast.Call, what: str, sc: _Scope, in_folds: bool) -> str:
        """Record a preprocessor fit (and flag one on test rows); returns its origin tag."""
        data = set().union(*(self.origins(a, sc, in_folds) for a in call.args[:1]))
        if "file:test" in data:
            self.add("fit-on-test", call.lineno,
                     f"{what} is fitted on data that includes the test file's rows; fit it on training rows only")  # fmt: skip
        tag = f"fit:{call.lineno}"
        self.fits[tag] = _Fit(call.lineno, what, in_folds)
        return tag

    def is_target(self, node: ast.AST, sc: _Scope) -> bool:
        """A column key naming a target: "y", TARGET (bound to "y"), ["y"]."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value in self.targets
        if isinstance(node, ast.Name):
            return bool(sc.strings.get(node.id, set()) & self.targets)
        if isinstance(node, ast.List | ast.Tuple):
            return any(self.is_target(e, sc) for e in node.elts)
        return False

    def is_target_stat(self, node: ast.Subscript, sc: _Scope) -> bool:
        """`frame.groupby(...)[target]`."""
        v = node.value
        return isinstance(v, ast.Call) and _name(v.func) == "groupby" and self.is_target(node.slice, sc)

    def groupby_agg_target(self, call: ast.Call, sc: _Scope) -> bool:
        """`frame.groupby(...).agg({target: ...})`."""
        recv = call.func.value if isinstance(call.func, ast.Attribute) else None
        if not (isinstance(recv, ast.Call) and _name(recv.func) == "groupby"):
            return False
        return any(isinstance(a, ast.Dict) and any(k is not None and self.is_target(k, sc) for k in a.keys)
                   for a in call.args)  # fmt: skip

    # -- statements -----------------------------------------------------------------------------------------
    def run(self, tree: ast.Module) -> list[LeakFinding]:
        self.block(tree.body, _Scope(), in_folds=False)
        return sorted(self.findings.values(), key=lambda f: (f.line, f.kind))

    def block(self, body: list[ast.stmt], sc: _Scope, in_folds: bool) -> None:
        for stmt in body:
            self.stmt(stmt, sc, in_folds)

    def stmt(self, s: ast.stmt, sc: _Scope, in_folds: bool) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            self.block(s.body, _Scope(), in_folds=False)
            return
        if isinstance(s, ast.ClassDef):
            self.block(s.body, _Scope(), in_folds=False)
            return
        self.calls(s, sc, in_folds)
        if isinstance(s, ast.Assign):
            self.assign(s.targets, s.value, s, sc, in_folds)
        elif isinstance(s, ast.AnnAssign) and s.value is not None:
            self.assign([s.target], s.value, s, sc, in_folds)
        elif isinstance(s, ast.AugAssign):
            base = _base(s.target)
            if base:
                sc.origins.setdefault(base, set()).update(self.origins(s.value, sc, in_folds))
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            self.effect(s.value, sc, in_folds)
        elif isinstance(s, ast.For | ast.AsyncFor):
            folds = in_folds or self.is_fold_loop(s.iter) or self.is_fold_loop(s.target)
            self.assign([s.target], s.iter, s, sc, in_folds)
            self.block(s.body, sc, folds)
            self.block(s.orelse, sc, in_folds)
        elif isinstance(s, ast.With | ast.AsyncWith):
            for item in s.items:
                if item.optional_vars is not None:
                    self.assign([item.optional_vars], item.context_expr, s, sc, in_folds)
            self.block(s.body, sc, in_folds)
        elif isinstance(s, ast.If | ast.While):
            self.block(s.body, sc, in_folds)
            self.block(s.orelse, sc, in_folds)
        elif isinstance(s, ast.Try):
            for part in (s.body, *(h.body for h in s.handlers), s.orelse, s.finalbody):
                self.block(part, sc, in_folds)

    def is_fold_loop(self, it: ast.expr) -> bool:
        for n in self.nodes(it):
            if isinstance(n, ast.Call) and _name(n.func) == "split":
                return True
            if isinstance(n, ast.Name | ast.Attribute) and FOLD_WORDS.search(_name(n) or ""):
                return True
        return False

    def assign(
        self, targets: list[ast.expr], value: ast.expr, s: ast.stmt, sc: _Scope, in_folds: bool
    ) -> None:
        origins = self.origins(value, sc, in_folds)
        text = self.mentions(value, sc)
        kind = _name(value.func) if isinstance(value, ast.Call) else None
        if (
            isinstance(value, ast.Call)
            and _name(value.func) in ("fit",)
            and isinstance(value.func, ast.Attribute)
        ):
            kind = _name(value.func.value.func) if isinstance(value.func.value, ast.Call) else kind
        for t in targets:
            for el in t.elts if isinstance(t, ast.Tuple | ast.List) else [t]:
                if isinstance(el, ast.Name):
                    sc.origins[el.id] = set(origins)
                    sc.defs.setdefault(el.id, []).append((s.lineno, value))
                    sc.strings[el.id] = text
                    if kind:
                        sc.kinds[el.id] = kind
                elif isinstance(el, ast.Subscript | ast.Attribute):
                    self.column_write(el, value, origins, sc, in_folds, s.lineno)

    def column_write(self, target: ast.Subscript | ast.Attribute, value: ast.expr, origins: set[str], sc: _Scope,
                     in_folds: bool, line: int) -> None:  # fmt: skip
        """`frame[col] = value`: target statistics or target-derived values written into training rows."""
        base = _base(target)
        if base is None:
            return
        frame = sc.origins.setdefault(base, set())
        into_train = "file:train" in frame
        for tag in sorted(o for o in origins if o.startswith("tstat:")):
            if into_train and not in_folds:
                self.add("target-stats", int(tag.split(":")[1]),
                         f"target statistics of the whole training table are written into its rows ('{base}' "
                         f"at line {line}): compute them out of fold")  # fmt: skip
        col = self.column_name(target)
        if col and col not in self.targets and into_train and not in_folds and self.uses_target(value, sc):
            sc.derived[col] = line
        frame |= {o for o in origins if o.startswith("fit:")}  # a fitted transform now shapes these rows

    @staticmethod
    def column_name(target: ast.AST) -> str | None:
        if isinstance(target, ast.Subscript):
            sl = target.slice
            if isinstance(sl, ast.Tuple) and sl.elts:
                sl = sl.elts[-1]
            if isinstance(sl, ast.Constant) and isinstance(sl.value, str):
                return sl.value
        if isinstance(target, ast.Attribute):
            return target.attr
        return None

    def uses_target(self, value: ast.expr, sc: _Scope) -> bool:
        for n in self.nodes(value):
            if isinstance(n, ast.Subscript) and self.is_target(n.slice, sc):
                return True
            if isinstance(n, ast.Attribute) and n.attr in self.targets:
                return True
        return False

    def effect(self, call: ast.Call, sc: _Scope, in_folds: bool) -> None:
        """A call for its effect: `scaler.fit(X)` marks the scaler; `df.pop(target)` removes the column."""
        if not isinstance(call.func, ast.Attribute):
            return
        recv = call.func.value
        name = call.func.attr
        if name == "fit" and isinstance(recv, ast.Name) and call.args:
            what = self.preprocessor(recv, sc)
            if what:
                sc.origins.setdefault(recv.id, set()).add(self.fit(call, what, sc, in_folds))

    # -- calls anywhere in a statement ----------------------------------------------------------------------
    def calls(self, s: ast.stmt, sc: _Scope, in_folds: bool) -> None:
        shallow = (
            [s] if not isinstance(s, ast.For | ast.While | ast.If | ast.With | ast.Try) else self.heads(s)
        )
        for root in shallow:
            for n in self.nodes(root):
                if isinstance(n, ast.Call):
                    self.split_point(n, sc, in_folds)
                    self.model_fit(n, sc)
                    self.eval_sets(n, sc, in_folds)
                    self.literal_metric(n, sc)
                    self.pop(n, sc)

    @staticmethod
    def heads(s: ast.stmt) -> list[ast.AST]:
        """The parts of a compound statement that run before its body (the body is walked on its own)."""
        if isinstance(s, ast.For | ast.AsyncFor):
            return [s.iter]
        if isinstance(s, ast.While | ast.If):
            return [s.test]
        if isinstance(s, ast.With | ast.AsyncWith):
            return [i.context_expr for i in s.items]
        return []

    def pop(self, call: ast.Call, sc: _Scope) -> None:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "pop" and call.args:
            base = _base(call.func.value)
            if base:
                sc.popped.setdefault(base, set()).update(_strings(self.nodes(call.args[0])))

    def split_point(self, call: ast.Call, sc: _Scope, in_folds: bool) -> None:
        name = _name(call.func)
        data: list[ast.expr] = []
        if name in SPLITTERS:
            data = list(call.args) if name == "train_test_split" else list(call.args[1:2])
        elif name == "split" and call.args:
            data = list(call.args[:1])
        elif name == "fit" and isinstance(call.func, ast.Attribute):
            ctor = self.constructor(call.func.value, sc)
            if ctor and CV_ESTIMATOR.search(ctor):
                data = list(call.args[:1])
        for d in data:
            for tag in self.origins(d, sc, in_folds):
                fit = self.fits.get(tag)
                if fit is not None and not fit.in_folds and not VOCABULARY_CODER.search(fit.what):
                    self.add("fit-before-split", fit.line,
                             f"{fit.what} is fitted on all rows before they are split into training and validation "
                             f"rows (line {call.lineno}); fit it inside each split (e.g. in a Pipeline)")  # fmt: skip

    def constructor(self, node: ast.AST, sc: _Scope) -> str | None:
        if isinstance(node, ast.Call):
            return _name(node.func)
        if isinstance(node, ast.Name):
            return sc.kinds.get(node.id)
        return None

    def eval_sets(self, call: ast.Call, sc: _Scope, in_folds: bool) -> None:
        for kw in call.keywords:
            if kw.arg in EVAL_KEYWORDS and "file:test" in self.origins(kw.value, sc, in_folds):
                self.add("test-early-stopping", call.lineno,
                         "the evaluation / early-stopping set is built from the test file; stop on validation rows")  # fmt: skip

    # -- target as a feature --------------------------------------------------------------------------------
    def model_fit(self, call: ast.Call, sc: _Scope) -> None:
        name = _name(call.func)
        if name == "fit" and len(call.args) >= 2 and isinstance(call.func, ast.Attribute):
            if self.preprocessor(call.func.value, sc):
                return
            features = call.args[0]
        elif name in ("Dataset", "DMatrix", "Pool") and call.args:
            features = call.args[0]
        elif name in SPLITTERS - {"train_test_split"} and len(call.args) >= 2:
            features = call.args[1]
        else:
            return
        for col, built in self.target_columns(features, sc, call.lineno):
            why = (
                "is the target"
                if col in self.targets
                else f"is computed from the target (line {sc.derived[col]})"
            )
            self.add("target-feature", call.lineno,
                     f"the features (built at line {built}) keep column '{col}', which {why}")  # fmt: skip

    def target_columns(
        self, features: ast.expr, sc: _Scope, line: int, depth: int = 0
    ) -> list[tuple[str, int]]:
        """Target (or target-derived) columns that stay in a feature matrix built by drop / a column list."""
        if depth > 6 or not (self.targets or sc.derived):
            return []
        if isinstance(features, ast.Name):
            defs = [(ln, v) for ln, v in sc.defs.get(features.id, []) if ln < line]
            if not defs:
                return []
            ln, value = defs[-1]
            if _base(value) == features.id and not isinstance(value, ast.Name):
                earlier = [(a, v) for a, v in defs[:-1]]
                if not earlier:
                    return []
                sub = _Scope(sc.origins, {features.id: earlier}, sc.strings, sc.kinds, sc.popped, sc.derived)
                return self.target_columns(features, sub, ln, depth + 1)
            return self.built(value, sc, ln, depth)
        return self.built(features, sc, line, depth)

    def built(self, value: ast.expr, sc: _Scope, line: int, depth: int) -> list[tuple[str, int]]:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            frame = _base(value.func.value)
            if value.func.attr == "drop" and frame and "file:train" in sc.origins.get(frame, set()):
                dropped = set().union(
                    *(self.mentions(a, sc) for a in [*value.args, *(k.value for k in value.keywords)])
                )
                dropped |= sc.popped.get(frame, set())
                keep = (self.targets | set(sc.derived)) - dropped
                return [(c, line) for c in sorted(keep)]
            if value.func.attr in DROP_METHODS:
                return self.target_columns(value.func.value, sc, line, depth + 1)
        if isinstance(value, ast.Call) and _name(value.func) == "train_test_split" and value.args:
            return self.target_columns(value.args[0], sc, line, depth + 1)
        if isinstance(value, ast.Subscript):
            frame = _base(value.value)
            if frame and "file:train" in sc.origins.get(frame, set()):
                cols = self.column_list(value.slice, sc)
                return [(c, line) for c in sorted(cols & (self.targets | set(sc.derived)))]
        if isinstance(value, ast.Attribute) and value.attr == "values":
            return self.target_columns(value.value, sc, line, depth + 1)
        return []

    def column_list(self, node: ast.expr, sc: _Scope) -> set[str]:
        """Columns a selector names: a list literal, a name bound to one, or a filtered comprehension."""
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:  # .loc[:, cols]
            node = node.elts[1]
        if isinstance(node, ast.Name):
            defs = sc.defs.get(node.id, [])
            return self.column_list(defs[-1][1], sc) if defs else set()
        if isinstance(node, ast.List | ast.Tuple):
            return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        if isinstance(node, ast.ListComp):
            if not any("file:train" in self.origins(g.iter, sc, False) for g in node.generators):
                return set()  # e.g. the test file's columns: they cannot hold the target
            excluded = set().union(*(self.mentions(cond, sc) for g in node.generators for cond in g.ifs))
            return (self.targets | set(sc.derived)) - excluded
        return set()

    # -- a literal validation score -------------------------------------------------------------------------
    def literal_metric(self, call: ast.Call, sc: _Scope) -> None:
        name = _name(call.func)
        if name in ("write", "write_text") and call.args and _literal_number(call.args[0]):
            target = call.func.value if isinstance(call.func, ast.Attribute) else None
            if target is not None and any("eval_metric" in s for s in self.mentions(target, sc)):
                self.add("hardcoded-metric", call.lineno,
                         "the validation score is written as a literal number; compute it on validation rows")  # fmt: skip
        elif name == "print" and call.args:
            text = " ".join(_texts(call.args))
            if METRIC_WORDS.search(text) and (
                any(_literal_number(a) for a in call.args) or _number_in_constant(call.args)
            ):
                self.add("hardcoded-metric", call.lineno,
                         "a validation score is printed as a literal number; print the computed score")  # fmt: skip


def _texts(args: list[ast.expr]) -> Iterator[str]:
    for a in args:
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            yield a.value
        elif isinstance(a, ast.JoinedStr):
            yield from (v.value for v in a.values if isinstance(v, ast.Constant) and isinstance(v.value, str))


def _literal_number(node: ast.expr) -> bool:
    """A number written in the code: 0.93, "0.93", f"{0.93}", str(0.93)."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            return False
        if isinstance(node.value, int | float):
            return True
        return isinstance(node.value, str) and NUMBER.fullmatch(node.value.strip() or "x") is not None
    if isinstance(node, ast.JoinedStr):
        parts = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
        return bool(parts) and all(isinstance(p, ast.Constant) for p in parts)
    if isinstance(node, ast.Call) and _name(node.func) in ("str", "float") and node.args:
        return _literal_number(node.args[0])
    return False


def _number_in_constant(args: list[ast.expr]) -> bool:
    """A print of one constant string that ends in a number: print("validation auc: 0.99")."""
    only = [a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return len(args) == 1 and len(only) == 1 and re.search(NUMBER.pattern + r"\s*$", only[0]) is not None


def check_code(code: str, targets: Iterable[str] = ()) -> list[LeakFinding]:
    """Leak findings for a script (empty when it does not parse: the coder reports syntax errors)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    checker = _Checker(targets)
    checker.targets |= _inferred_targets(tree)
    return checker.run(tree)


def _inferred_targets(tree: ast.Module) -> set[str]:
    """Target columns a script names itself: `TARGET = "y"`, `y = train["y"]`, `train.pop("y")`."""
    out: set[str] = set()
    for n in _walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name, v = n.targets[0].id.lower(), n.value
            if re.search(r"target|label", name) and isinstance(v, ast.Constant) and isinstance(v.value, str):
                out.add(v.value)
            if re.fullmatch(r"y(_\w+)?|target\w*|labels?", name):
                sub = next((s for s in ast.walk(v) if isinstance(s, ast.Subscript)), None)
                if (
                    sub is not None
                    and isinstance(sub.slice, ast.Constant)
                    and isinstance(sub.slice.value, str)
                ):
                    out.add(sub.slice.value)
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop" and n.args
                and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):  # fmt: skip
            out.add(n.args[0].value)
    return out
