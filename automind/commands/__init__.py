"""One module per CLI area; each exposes register(app). Shared helpers live in common.py."""
