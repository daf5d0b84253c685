"""Validation speed: rulebook validate vs check-jsonschema (schema only) on the same files.

Generates a ruleset of N cards (default 250) from the small test fixture's
components, with varied effects, requirements, triggers and victory points,
then times, in fresh processes:

- ``rulebook validate``: YAML with positions, schemas, effect parsing,
  type-checking, semantic checks and compilation;
- ``check-jsonschema``: schema validation only, of the same files.

Both figures are medians over several runs measured in the same session, and
the ratio is reported. Also reports the shipped rulesets' validation times.
``rulebook validate`` keeps what it checked in the per-user cache, so after
the first run it reads the ruleset from there; ``--fresh`` turns the cache
off (``RULEBOOK_NO_CACHE=1``) so every run loads and checks afresh.
``--sizes`` times a fresh ``validate`` of generated rulesets of several
sizes instead (CPU time of the child), with each file's size and the time per
card, to show how the time grows with the input.

    python benchmarks/bench_validate.py [--cards 250] [--runs 7] [--fresh]
    python benchmarks/bench_validate.py --sizes 700,2000,7000 [--runs 3]

Needs the bench extra (check-jsonschema): pip install -e '.[bench]'; without
it the script says so and stops (exit 2) before generating anything.
--sizes needs only Rulebook.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "mini"
OUT = ROOT / "benchmarks" / "out"

PLAYS = [
    "raise temperature\nplace ocean\nremove up to {n} plants from any player",
    "gain {n} plants\nlose 1 heat production\ngain {m} mc production",
    "if stock(heat) >= {n}:\n  lose {n} heat\n  raise temperature\nelse:\n  gain 1 heat",
    "choose one:\n  - gain {n} plants\n  - add {m} microbes to this",
    "for p in players():\n  if p != you:\n    lose 1 mc for p\ngain {n} mc",
    "let x = count(s in spaces() where s.tile == ocean)\ngain x mc",
    "may:\n  pay {n} mc\n  raise temperature by 2",
]
REQUIRES = ["temperature >= {t}", "temperature <= {t}", "production(heat) >= 1",
            "count(c in cards_in(hand) where c.cost > {n}) >= 1"]
VPS = ["{n}", "resources_on(this, microbe) // {n}", "1 if stock(heat) > {m} else 0"]


def generate(cards: int, seed: int = 1) -> Path:
    rng = random.Random(seed)
    target = OUT / f"generated_{cards}"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(FIXTURE, target)
    with open(target / "components.yaml", "a", encoding="utf-8") as fh:
        fh.write("zones:\n  - {id: hand, scope: player, visibility: owner}\n")
    lines = ["kind: cards", "cards:"]
    for i in range(cards):
        fill = {"n": rng.randint(1, 4), "m": rng.randint(1, 3), "t": rng.choice([-20, -12, 0])}
        lines += [f"  - id: card_{i:04d}", f"    name: Generated Card {i}",
                  "    type: active", f"    cost: {rng.randint(1, 30)}",
                  f"    tags: [{rng.choice(['space', 'plant', 'microbe'])}]"]
        if rng.random() < 0.6:
            lines.append(f"    requires: {rng.choice(REQUIRES).format(**fill)}")
        lines.append("    play: |")
        lines += ["      " + l for l in rng.choice(PLAYS).format(**fill).splitlines()]
        if rng.random() < 0.4:
            lines += ["    triggers:", "      - on: card_played", "        scope: you",
                      "        if: has_tag(event.card, plant)",
                      f"        do: add {fill['m']} microbes to this"]
        if rng.random() < 0.5:
            lines.append(f"    vp: {rng.choice(VPS).format(**fill)}")
    (target / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def timed(cmd: list[str], runs: int, expect: int = 0, env: dict | None = None,
          cpu: bool = False) -> float:
    """Median wall-clock seconds of ``runs`` runs (``cpu``: the child's CPU seconds)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              env=None if env is None else {**os.environ, **env})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
                       if cpu else time.perf_counter() - start)
        if proc.returncode != expect:
            raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n"
                             f"{proc.stderr}")
    return statistics.median(samples)


MISSING = {
    "check-jsonschema": "bench_validate.py times check-jsonschema beside rulebook validate, "
                        "and it is not installed: it comes with the bench extra, "
                        "pip install -e '.[bench]'",
    "rulebook": "the rulebook command is not installed beside this Python: pip install -e .",
}


def bin_path(name: str) -> str:
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return str(exe)
    found = shutil.which(name)
    if not found:
        print(MISSING[name], file=sys.stderr)
        raise SystemExit(2)
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=250)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--fresh", action="store_true", help="no cache: every run loads afresh")
    ap.add_argument("--sizes", help="card counts, comma-separated: a fresh validate of each")
    args = ap.parse_args()
    bin_path("rulebook")  # what is missing is said before anything is generated or timed
    if args.sizes:
        return sizes([int(n) for n in args.sizes.split(",")], args.runs)
    bin_path("check-jsonschema")
    env = {"RULEBOOK_NO_CACHE": "1"} if args.fresh else None
    target = generate(args.cards)
    rulebook = [bin_path("rulebook"), "validate", str(target), "-q"]
    schemas = ROOT / "schemas"
    cjs = bin_path("check-jsonschema")
    schema_only = [
        [cjs, "--schemafile", str(schemas / "cards.schema.json"), str(target / "cards.yaml")],
        [cjs, "--schemafile", str(schemas / "components.schema.json"),
         str(target / "components.yaml")],
        [cjs, "--schemafile", str(schemas / "flow.schema.json"), str(target / "flow.yaml")],
        [cjs, "--schemafile", str(schemas / "ruleset.schema.json"), str(target / "ruleset.yaml")],
    ]
    timed(rulebook, 1)  # warm the parser cache and the OS file cache
    for cmd in schema_only:
        timed(cmd, 1)
    ours = timed(rulebook, args.runs, env=env)
    theirs_cards = timed(schema_only[0], args.runs)
    theirs_all = sum(timed(cmd, args.runs) for cmd in schema_only)
    print(f"generated ruleset: {args.cards} cards, {target}")
    how = "afresh" if args.fresh else "cached"
    print(f"rulebook validate ({how}; schema + language + semantics + compile): {ours:.3f} s")
    print(f"check-jsonschema, cards file only (schema only):           {theirs_cards:.3f} s")
    print(f"check-jsonschema, all 4 files, one process each:           {theirs_all:.3f} s")
    print(f"ratio rulebook / check-jsonschema (cards file):            {ours / theirs_cards:.2f}")
    for name in sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml")):
        t = timed([bin_path("rulebook"), "validate", name, "-q"], max(3, args.runs // 2),
                  env=env)
        print(f"shipped ruleset {name} ({how}): {t:.3f} s")


def sizes(counts: list[int], runs: int) -> None:
    """A fresh validate of generated rulesets of each size: linear loading keeps s/card flat."""
    rulebook = bin_path("rulebook")
    print("cards  cards.yaml  validate afresh (CPU)  ms per card")
    for n in counts:
        target = generate(n)
        t = timed([rulebook, "validate", str(target), "-q"], runs,
                  env={"RULEBOOK_NO_CACHE": "1"}, cpu=True)
        size = (target / "cards.yaml").stat().st_size
        print(f"{n:>5}  {size / 1e6:>7.2f} MB  {t:>19.2f} s  {1000 * t / n:>11.2f}")


if __name__ == "__main__":
    main()
