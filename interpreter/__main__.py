"""Run the command line: ``python -m rulebook_games``."""

from .cli import main

main()
