"""The search's default budget, in a module light enough for `automind --help` (which states it) to import
without loading pydantic; `automind.config` applies it (SearchConfig.budget)."""

DEFAULT_STEPS = 12  # nodes, when neither a step nor a time limit is set
DEFAULT_TIME_LIMIT_S = 1800.0  # seconds, idem
