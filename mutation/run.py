"""Mutation testing of the core, one module at a time, and its score.

    python mutation/run.py                 # every module, then the score table
    python mutation/run.py arena/clock.py  # some modules
    python mutation/run.py --score         # only the table, from the last runs

Runs ``mutmut run`` (configured under ``[tool.mutmut]`` in pyproject.toml) for each module with at
most ``--max-children`` test processes, then reads the results mutmut keeps in ``mutants/`` and
prints, per module, the mutants generated, killed (a test failed or timed out), survived, and with
no test, and the score: killed / (generated − survivors listed as equivalent in
``mutation/equivalent.md``). Exits 1 if any module scores below ``--goal`` percent.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The modules under mutation testing, in the order they are run (the largest test runs last).
MODULES = (
    "arena/clock.py",
    "protocols/codec.py",
    "arena_bot/codec.py",
    "arena/store/db.py",
    "arena/referee.py",
    "protocols/transport.py",
    "leaderboards/scale.py",
    "leaderboards/results.py",
    "leaderboards/field.py",
    "leaderboards/seats.py",
    "leaderboards/format.py",
    "leaderboards/publish.py",
    "leaderboards/bootstrap.py",
    "leaderboards/stats.py",
    "leaderboards/newton.py",
    "leaderboards/pairwise.py",
    "leaderboards/render_json.py",
    "leaderboards/render_table.py",
    "leaderboards/render_html.py",
    "leaderboards/render_markdown.py",
    "leaderboards/build.py",
    "leaderboards/plackett_luce.py",
    "leaderboards/sprt.py",
    "arena/tournament/schedule.py",
)
#: Packages that live elsewhere in the tree, linked at the root while mutmut runs: mutmut names a
#: module by its path and puts only ``mutants/`` on the import path, so a package is mutated where
#: its import name says it is (a lasting link would make the package appear twice to setuptools).
LINKED = {"arena_bot": ROOT / "sdk" / "python" / "arena_bot"}
EQUIVALENT = ROOT / "mutation" / "equivalent.md"
KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


@dataclass(frozen=True)
class Score:
    """One module's results."""

    module: str
    generated: int
    killed: int
    survived: tuple[str, ...]
    no_tests: tuple[str, ...]
    unchecked: int
    equivalent: int

    @property
    def percent(self) -> float:
        """Killed as a percentage of the mutants that are not equivalent."""
        counted = self.generated - self.equivalent
        return 100.0 * self.killed / counted if counted else 100.0


def equivalent_names() -> set[str]:
    """The mutant names listed in ``mutation/equivalent.md`` (lines starting ``- `name```)."""
    if not EQUIVALENT.exists():
        return set()
    return set(re.findall(r"^- `([^`]+)`", EQUIVALENT.read_text(), flags=re.MULTILINE))


def score(module: str, equivalent: set[str]) -> Score | None:
    """``module``'s score from mutmut's results, or ``None`` if it was never run."""
    meta = ROOT / "mutants" / (module + ".meta")
    if not meta.exists():
        return None
    codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
    survived = tuple(sorted(k for k, c in codes.items() if c in SURVIVED))
    return Score(
        module=module,
        generated=len(codes),
        killed=sum(1 for c in codes.values() if c in KILLED or c in TIMEOUT),
        survived=survived,
        no_tests=tuple(sorted(k for k, c in codes.items() if c in NO_TESTS)),
        unchecked=sum(1 for c in codes.values() if c is None),
        equivalent=sum(1 for k in survived if k in equivalent),
    )


def run(module: str, max_children: int) -> int:
    """Run mutmut over the mutants of ``module``; mutmut's exit status."""
    pattern = module.removesuffix(".py").replace("/", ".") + ".*"
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), pattern]
    print("$", " ".join(command), flush=True)
    with linked():
        return subprocess.run(command, cwd=ROOT, check=False).returncode


@contextmanager
def linked() -> Iterator[None]:
    """The :data:`LINKED` packages linked at the root for the span of the block (a link already
    there is left as it is)."""
    made: list[Path] = []
    try:
        for name, target in LINKED.items():
            link = ROOT / name
            if not link.exists() and not link.is_symlink():
                link.symlink_to(target.relative_to(ROOT), target_is_directory=True)
                made.append(link)
        yield
    finally:
        for link in made:
            link.unlink()


def table(modules: list[str]) -> list[Score]:
    """Print the score table; the scores of the modules that were run."""
    equivalent = equivalent_names()
    print(f"{'module':34} {'mutants':>7} {'killed':>7} {'survived':>8} {'equiv.':>6} {'no test':>7} "
          f"{'score':>7}")
    totals = [0, 0, 0]
    scores: list[Score] = []
    for module in modules:
        result = score(module, equivalent)
        if result is None:
            print(f"{module:34} not run")
            continue
        scores.append(result)
        totals[0] += result.generated
        totals[1] += result.killed
        totals[2] += result.equivalent
        note = f"  ({result.unchecked} not checked)" if result.unchecked else ""
        print(f"{module:34} {result.generated:7} {result.killed:7} {len(result.survived):8} "
              f"{result.equivalent:6} {len(result.no_tests):7} {result.percent:6.1f}%{note}")
    if scores:
        counted = totals[0] - totals[2]
        overall = 100.0 * totals[1] / counted if counted else 100.0
        print(f"{'all':34} {totals[0]:7} {totals[1]:7} {'':8} {totals[2]:6} {'':7} {overall:6.1f}%")
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to run (default: all, in order)")
    parser.add_argument("--max-children", type=int, default=2, help="test processes at once (2)")
    parser.add_argument("--score", action="store_true", help="only print the table of the last runs")
    parser.add_argument("--survivors", action="store_true",
                        help="also list each surviving mutant not marked equivalent")
    parser.add_argument("--goal", type=float, default=90.0, help="the score each module must reach")
    args = parser.parse_args()
    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        parser.error(f"not under mutation testing: {', '.join(unknown)}; modules: {', '.join(MODULES)}")
    if not args.score:
        for module in modules:
            if run(module, args.max_children) != 0:
                print(f"mutmut failed on {module}", file=sys.stderr)
                return 2
    scores = table(modules)
    if args.survivors:
        equivalent = equivalent_names()
        for result in scores:
            for name in result.survived:
                if name not in equivalent:
                    print("survived:", name)
    below = [s.module for s in scores if s.percent < args.goal]
    if below:
        print(f"below {args.goal:g}%: {', '.join(below)}")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
