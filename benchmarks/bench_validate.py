"""Validation speed: rulebook validate vs check-jsonschema (schema only) on the same files.

Generates a ruleset of N cards (default 250) from the small test fixture's
components, with varied effects, requirements, triggers and victory points,
then times, in fresh processes:

- ``rulebook validate``: YAML with positions, schemas, effect parsing,
  type-checking, semantic checks and compilation;
- ``check-jsonschema``: schema validation only, of the same files.

Both figures are medians over several runs measured in the same session, and
the ratio is reported. Also reports the shipped rulesets' validation times.

    python benchmarks/bench_validate.py [--cards 250] [--runs 7]

Needs the bench extra: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import random
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


def timed(cmd: list[str], runs: int, expect: int = 0) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        samples.append(time.perf_counter() - start)
        if proc.returncode != expect:
            raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n"
                             f"{proc.stderr}")
    return statistics.median(samples)


def bin_path(name: str) -> str:
    exe = Path(sys.executable).parent / name
    if exe.exists():
        return str(exe)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: pip install -e '.[bench]'")
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=250)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
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
    ours = timed(rulebook, args.runs)
    theirs_cards = timed(schema_only[0], args.runs)
    theirs_all = sum(timed(cmd, args.runs) for cmd in schema_only)
    print(f"generated ruleset: {args.cards} cards, {target}")
    print(f"rulebook validate (schema + language + semantics + compile): {ours:.3f} s")
    print(f"check-jsonschema, cards file only (schema only):           {theirs_cards:.3f} s")
    print(f"check-jsonschema, all 4 files, one process each:           {theirs_all:.3f} s")
    print(f"ratio rulebook / check-jsonschema (cards file):            {ours / theirs_cards:.2f}")
    for name in sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml")):
        t = timed([bin_path("rulebook"), "validate", name, "-q"], max(3, args.runs // 2))
        print(f"shipped ruleset {name}: {t:.3f} s")


if __name__ == "__main__":
    main()
