"""The agent's roles as one small protocol, so an LLM and the offline recipe policy are interchangeable.

The tree search (automind.search) decides *what* to do next (draft / improve / debug on which
parent, with which trick); a `Roles` implementation decides *how*: it writes the plan, rates its
complexity, writes the code (whole or step by step), repairs failures and verifies the outcome.
Two implementations exist: `automind.llm.roles.LLMRoles` (prompts + an OpenAI-compatible model)
and `automind.recipes.RecipeRoles` (deterministic, built from the knowledge base's recipe cards);
`automind.assemble` picks one for a run. This module imports nothing from the project at run time, so
every layer can depend on it without closing an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from automind.llm.client import LLM
    from automind.sandbox import ExecResult
    from automind.task import Task

# draft/improve/debug: AutoMind's Algorithm 1; refine and ensemble: MLE-STAR's actions (docs/search.md);
# leak-fix / data-use: MLE-STAR's checkers rewriting a valid node's script (LLM mode), kept as its child
Action = Literal["draft", "improve", "debug", "refine", "ensemble", "leak-fix", "data-use"]


# The newest memory lines a prompt shows; the context keeps the whole run's (Context.memory).
MEMORY_LINES = 12


@dataclass
class Trick:
    """One piece of actionable knowledge with its provenance (card id, post URL, paper title)."""

    id: str
    title: str
    text: str
    labels: list[str] = field(default_factory=list)  # "Top/Sub" or "Top"
    stage: str | None = None
    source: str = ""  # card id, URL or paper title: where the trick came from
    kind: str = "card"  # card | post | paper | competition | experience
    score: float = 0.0
    recipe: dict[str, Any] | None = None  # executable recipe (see docs/recipes.md), cards only


@dataclass
class Context:
    """Everything a role may look at for one search step. Plain values, no live objects but the task."""

    task: Task
    action: Action
    analysis: str  # data analysis rendered as text (computed once per run)
    facts: dict[str, Any] = field(default_factory=dict)  # structured analysis: problem type, columns, ...
    labels: list[str] = field(default_factory=list)  # task labels from the retriever, best first
    knowledge: list[Trick] = field(
        default_factory=list
    )  # drafts: retrieved tricks, and papers (kind "paper")
    trick: Trick | None = None  # improve: the one trick to apply (None: plain improve)
    # "tried X -> validation Y", one line per node of this run, oldest first (the recipe policy reads every
    # draft and trick set it already ran; a prompt shows the newest MEMORY_LINES)
    memory: list[str] = field(default_factory=list)
    experience: list[str] = field(default_factory=list)  # hints from the experience store
    parent_plan: str | None = None
    parent_code: str | None = None
    parent_output: str | None = None  # truncated execution output (errors for debug)
    parent_metric: float | None = None
    parent_dir: str | None = None  # the parent's node folder (its saved outputs are under submission/)
    parent_tricks: list[str] = field(default_factory=list)  # trick ids applied on the lineage
    # trick ids that changed no prediction wherever this run, or the parent's draft, applied them
    # (search/journal.ineffective_tricks)
    ineffective_tricks: list[str] = field(default_factory=list)
    siblings: list[dict[str, Any]] = field(default_factory=list)  # earlier valid nodes (for blending)
    seed: int = 0
    # debug: the failed versions above the parent on its lineage, oldest first, each a dict with
    # id, action, plan, analysis (the error analysis of a debug step) and error (Agent K's staged reasoning)
    lineage: list[dict[str, Any]] = field(default_factory=list)
    time_left_s: float | None = None  # run time left when the step started (None: not known)
    exec_timeout_s: float | None = None  # how long this step's executions may run


@dataclass
class Plan:
    text: str  # the natural-language plan shown in the journal and report
    summary: str = ""  # one line, used in "tried X -> validation Y" memory
    meta: dict[str, Any] = field(default_factory=dict)  # implementation-private (e.g. the recipe chosen)


@dataclass
class Step:
    title: str
    details: str


@dataclass
class Verdict:
    """The verifier's opinion; the search overrides it with facts (exception, missing file, ...)."""

    is_bug: bool
    summary: str
    metric: float | None = None
    lower_is_better: bool | None = None
    is_overfitting: bool = False
    has_csv_submission: bool = True


@dataclass
class LeakCheck:
    """The leakage checker's answer about one script (MLE-STAR): the block that prepares training, validation
    and test data, whether it leaks, and, when it does, that block rewritten (the rest of the script stays)."""

    leaky: bool
    block: str = ""  # the script's preprocessing block, copied exactly
    fixed: str = ""  # the same block without the leak (only when leaky)
    reason: str = ""


@dataclass
class AblationRun:
    """One script the search runs to measure a component's effect (refine, step 1).

    LLM mode: one script that tries every variant itself (`label` "all"); offline: the solution itself
    (`label` "baseline", measured under the same time limit) and one script per component, the solution
    with that component reduced to its neutral form."""

    label: str  # the component ablated, or "all"
    code: str
    change: str = ""  # what the variant changes, e.g. "model: portfolio -> lgbm"
    # the solution itself: under its slice it must score what the solution scored, else the slices measure a
    # cut-down solution (a portfolio that trains only its first model) and the ablation stops there
    reproduces: bool = False


@dataclass
class AblationResult:
    """An ablation script after it ran: its output and the validation score it reported (None: none)."""

    run: AblationRun
    output: str
    metric: float | None = None
    error: str | None = None


@dataclass
class AblationRow:
    """One line of the component -> effect table. `effect` > 0: the component helps (removing or replacing
    it makes the score worse by that much, in the metric's units); < 0: it hurts."""

    component: str
    change: str
    score: float | None
    effect: float | None


@dataclass
class Ablation:
    rows: list[AblationRow]
    summary: str  # a few sentences: what matters most


@dataclass
class Block:
    """The code block a refine step rewrites: its name, its exact text in the script, and the first plan."""

    name: str
    code: str
    plan: Plan


@dataclass
class Attempt:
    """One earlier rewrite of a block: its plan and the score it reached (None: it failed)."""

    plan: str
    metric: float | None
    error: str | None = None


class Roles(Protocol):
    """What the search needs from a planner/coder/verifier.

    A method that cannot answer raises `automind.errors.RoleError`; the search makes the node buggy.
    """

    @property
    def name(self) -> str:
        """The implementation's name ("llm" or "recipes"), shown in the journal and report."""
        ...

    @property
    def llm(self) -> LLM | None:
        """The model behind the roles (usage, budgets, knowledge condensing), or None offline."""
        ...

    def plan(self, ctx: Context) -> Plan: ...

    def complexity(self, ctx: Context, plan: Plan) -> float:
        """1-5; the coder goes stepwise above the configured threshold."""
        ...

    def code(self, ctx: Context, plan: Plan) -> str:
        """A whole script: fresh for drafts, the parent's code edited for improve/debug."""
        ...

    def decompose(self, ctx: Context, plan: Plan) -> list[Step]: ...

    def step_code(self, ctx: Context, plan: Plan, steps: list[Step], index: int, program: str) -> str:
        """Only the new code for steps[index], given the program so far."""
        ...

    def repair(self, ctx: Context, code: str, error: str, step: Step | None = None, program: str = "") -> str:
        """The corrected code (whole script, or the failed step's code when `step` is given; then
        `program` holds the earlier steps, already executed in the session)."""
        ...

    def integrate(self, ctx: Context, plan: Plan, program: str) -> str:
        """Turn stepwise cells into one standalone script following the script contract."""
        ...

    def verify(self, ctx: Context, code: str, result: ExecResult) -> Verdict: ...

    def check_leakage(self, ctx: Context, code: str, findings: list[str]) -> LeakCheck:
        """Does the script's preprocessing leak validation or test information into training? `findings`:
        what the deterministic check (automind.leakage) found, one "line N: kind: message" each."""
        ...

    def use_data(self, ctx: Context, code: str, unused: list[str]) -> str:
        """The script rewritten to also use the provided inputs it ignored (`unused`, paths under input/)."""
        ...

    # --- refine (MLE-STAR Algorithm 2, one outer step; ctx.parent_* is the solution refined) -------------

    def ablation_scripts(self, ctx: Context, covered: list[str], refined: list[str]) -> list[AblationRun]:
        """Scripts that measure the effect of removing or replacing each main component of the solution.
        `covered`: components earlier ablations on this lineage measured (explore new ones); `refined`:
        blocks refined before on this lineage (they will not be chosen again)."""
        ...

    def summarise_ablation(self, ctx: Context, results: list[AblationResult]) -> Ablation:
        """The component -> effect table of the ablation scripts' results."""
        ...

    def extract_block(self, ctx: Context, ablation: Ablation, refined: list[str]) -> Block:
        """The most influential block of the solution not in `refined` (names of blocks refined before on
        this lineage), as its exact text in ctx.parent_code, with a first plan for rewriting it."""
        ...

    def plan_block(self, ctx: Context, block: Block, history: list[Attempt]) -> Plan | None:
        """The next plan for rewriting `block`, given the earlier attempts (None: nothing new to try)."""
        ...

    def code_block(self, ctx: Context, block: Block, plan: Plan) -> str:
        """The whole script with only `block` rewritten following `plan`."""
        ...

    # --- ensemble (ctx.parent_* is the best member) ------------------------------------------------------

    def plan_ensemble(self, ctx: Context, members: list[dict[str, Any]], history: list[Attempt]) -> Plan:
        """How to combine `members` (id, summary, metric, code, dir: their saved predictions are under
        dir/submission), given earlier ensemble plans and their scores."""
        ...

    def code_ensemble(self, ctx: Context, plan: Plan, members: list[dict[str, Any]]) -> str:
        """A script that builds the planned ensemble from the members' saved predictions, with weights
        fitted on out-of-fold predictions only."""
        ...
