"""``arena doctor``: what isolation this machine gives untrusted bots, and a sandboxed self-test."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from arena.cli.common import console
from arena.sandbox.probe import INSTALL_HINT, MachineReport, machine_report
from arena.sandbox.selftest import escape_checks, sandbox_problem


def _facts(report: MachineReport) -> Table:
    table = Table("layer", "here", "", title="isolation on this machine", show_edge=False)
    table.add_row("bubblewrap", report.bwrap or "missing", _mark(report.bwrap is not None,
                                                                  report.bwrap_version or INSTALL_HINT))
    table.add_row("user namespaces", "yes" if report.userns_problem is None else "no",
                  _mark(report.userns_problem is None, report.userns_problem or "new user, PID, mount, "
                        "network, IPC, UTS and cgroup namespaces per bot"))
    groups = report.cgroups
    if groups is None:
        table.add_row("control groups", "none", _mark(False, "no cgroup mount"))
    else:
        have = ", ".join(sorted(c for c in groups.bases if c)) or "none"
        missing = f"missing: {', '.join(groups.missing)}" if groups.missing else "processes, memory, " \
            "processors, CPU time and freezing per bot"
        table.add_row("control groups", f"v{groups.version} ({have})", _mark(not groups.missing, missing))
    table.add_row("running as", "root" if report.root else "an ordinary user",
                  _mark(report.root, "each bot gets an identity of its own" if report.root else
                        "bots share your user id outside their namespaces; control groups need root "
                        "or a delegated cgroup v2 subtree"))
    return table


def _mark(ok: bool, note: str) -> str:
    return ("ok  " if ok else "MISSING  ") + note


def doctor_command(
    self_test: Annotated[bool, typer.Option("--self-test/--no-self-test",
                                            help="Run a sandboxed probe that tries to escape.")] = True,
) -> None:
    """Show what isolation this machine gives untrusted bots, and test it from inside a sandbox.

    Exit status 0 when the sandbox works and holds, 1 otherwise.

    \b
    Examples:
      arena doctor
    """
    report = machine_report()
    console.print(_facts(report))
    problem = sandbox_problem()
    if problem is not None:
        console.print(f"[bold red]sandbox: does not work[/]: {problem}", highlight=False)
        console.print("Untrusted bots are refused unless --no-sandbox is given.")
        raise typer.Exit(1)
    console.print("sandbox: works")
    if not self_test:
        return
    groups = report.cgroups is not None and not report.cgroups.missing and report.root
    checks = escape_checks(with_groups=groups)
    table = Table("escape tried from inside", "outcome", title="self-test", show_edge=False)
    for check in checks:
        table.add_row(check.name, ("held: " if check.held else "FAILED: ") + check.detail)
    console.print(table, highlight=False)
    if not all(check.held for check in checks):
        raise typer.Exit(1)
