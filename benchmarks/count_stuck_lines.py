"""How often a player is told 'nothing else can be done' in random games (words7).

Usage: python benchmarks/count_stuck_lines.py [RULESET] [PLAYERS] [FIRST_SEED] [GAMES]

For each seat of each game: the automatic turn ends and passes said to it (each
said the reason before words7), and how many of them give the reason now.
"""

from __future__ import annotations

import sys

from rulebook_games import load_ruleset
from rulebook_games.engine.flow import FlowRunner
from rulebook_games.play.session import build_game


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "terraforming_mars"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    games = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    rs = load_ruleset(ruleset)
    automatic = reasons = seats = 0
    for seed in range(first, first + games):
        game = build_game(rs, players, seed, ["random"] * players)
        game.keep_log = True
        FlowRunner(game).play()
        for seat in range(players):
            me = game.state.players[seat].name
            for i in range(len(game.log_lines)):
                if game.log_lines[i] or seat not in game.private_lines.get(i, {}):
                    continue  # (the automatic lines are the seat's own)
                line = game.private_lines[i][seat]
                if line.startswith((f"{me}: end turn", f"{me}: pass")):
                    automatic += 1
                    reasons += "nothing else can be done" in line
            seats += 1
    print(f"{ruleset}, {players} players, seeds {first}-{first + games - 1}: "
          f"{automatic / seats:.1f} automatic ends and passes per seat a game; "
          f"{reasons / seats:.1f} say 'nothing else can be done' "
          f"(before words7: all {automatic / seats:.1f})")


if __name__ == "__main__":
    main()
