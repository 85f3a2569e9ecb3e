"""`python -m automind ...`: the same command line as the `automind` script."""

from automind.cli import main

main()
