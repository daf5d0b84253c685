"""Run the command line: ``python -m interpreter``."""

from .cli import main

main()
