"""Run the benchmarks and print their report; `--write` also puts it in docs/benchmarks.md.

    .venv/bin/python bench/run.py            # every benchmark, report on stdout (make bench)
    .venv/bin/python bench/run.py --write    # ... and docs/benchmarks.md rewritten from it
    .venv/bin/python bench/run.py --only scoring
    .venv/bin/python bench/run.py --only live --write   # only that section (and its summary
                                                        # rows) rewritten, dated on its own

A benchmark is a module of this package with NAME, TITLE and run(options) -> Section;
add its name to BENCHMARKS below and it gets its section in the report. Benchmarks that
need Django share bench.harness (a throw-away database, gunicorn, an HTTP load generator).
The exit status is 2 when a benchmark could not run; with --strict, 1 when a figure misses
its target (by default a missed target is reported, not an error).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import sys
import time
import traceback
from pathlib import Path

# Run as a script, sys.path[0] is bench/; the project root instead makes `bench` a package
# and keeps bench/*.py from shadowing top-level modules.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from bench import harness  # noqa: E402
from bench.common import (  # noqa: E402
    ROOT,
    Options,
    Section,
    load_average,
    log,
    machine,
    markdown_table,
)

# Module names under bench/, in the order they run and appear in the report.
BENCHMARKS = (
    "scoring",
    "playouts",
    "bots",
    "review",
    "sheet",
    "seating",
    "standings_page",
    "play",
    "stats",
    "coach",
    "isolation",
    "live",
    "streams",
)
DOC = ROOT / "docs" / "benchmarks.md"
COMMAND = "make bench"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {DOC.relative_to(ROOT)}")
    parser.add_argument(
        "--only", action="append", choices=BENCHMARKS, help="run only this benchmark (repeatable)"
    )
    defaults = Options()
    parser.add_argument(
        "--scoring-runs", type=int, default=defaults.scoring_runs, help="timed score_match calls"
    )
    parser.add_argument(
        "--requests", type=int, default=defaults.requests, help="measured GETs per page"
    )
    parser.add_argument("--passes", type=int, default=defaults.passes, help="interleaved passes")
    parser.add_argument("--warmup", type=int, default=defaults.warmup, help="warm-up GETs per page")
    parser.add_argument("--threads", type=int, default=defaults.threads, help="client threads")
    parser.add_argument(
        "--live-moves",
        type=int,
        default=defaults.live_moves,
        help="moves of the two people at a live table, per stack",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    # Bounded, so that a typo cannot start an endless run or a thousand threads.
    limits = {
        "scoring_runs": 100_000,
        "requests": 100_000,
        "passes": 100,
        "warmup": 10_000,
        "live_moves": 2_000,
    }
    for name, most in (limits | {"threads": 32}).items():
        if not 1 <= getattr(args, name) <= most:
            parser.error(f"--{name.replace('_', '-')} must be from 1 to {most}")
    options = Options(
        scoring_runs=args.scoring_runs,
        requests=args.requests,
        passes=args.passes,
        warmup=args.warmup,
        threads=args.threads,
        live_moves=args.live_moves,
    )

    started = datetime.datetime.now(datetime.UTC)
    load_before = load_average()
    clock = time.perf_counter()
    sections: list[Section] = []
    failed: list[str] = []
    try:
        for name in args.only or BENCHMARKS:
            module = importlib.import_module(f"bench.{name}")
            log(f"== {name}: {module.TITLE}")
            try:
                sections.append(module.run(options))
            except Exception:
                traceback.print_exc()
                failed.append(name)
    finally:
        harness.cleanup()
    elapsed = time.perf_counter() - clock

    loads = (load_before, load_average())
    report = render(sections, started, elapsed, loads)
    print()
    print(report)
    if args.write and not failed and args.only and DOC.exists():
        # Only these benchmarks ran: their sections and summary rows are replaced, each
        # dated with the command that measured it; the rest of the file is left as it was.
        command = " ".join(["bench/run.py", *(argv if argv is not None else sys.argv[1:])])
        DOC.write_text(update(DOC.read_text(), sections, started, elapsed, loads, command))
        log(f"updated {', '.join(args.only)} in {DOC.relative_to(ROOT)}")
    elif args.write and not failed:
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(report)
        log(f"wrote {DOC.relative_to(ROOT)}")
    elif args.write:
        log(f"not writing {DOC.relative_to(ROOT)}: {', '.join(failed)} could not run")
    missed = [check.what for section in sections for check in section.checks if not check.ok]
    for what in missed:
        log(f"missed: {what}")
    if failed:
        return 2
    return 1 if missed and args.strict else 0


NOTES = ROOT / "bench" / "notes.md"
WRITTEN = (
    "Written by `bench/run.py --write` from one run (a section that says when it was measured "
    "was measured again on its own, by `--only NAME --write`);"
)


def render(
    sections: list[Section],
    started: datetime.datetime,
    elapsed: float,
    loads: tuple[str, str],
) -> str:
    info = machine()
    summary = markdown_table(
        ["Benchmark", "Check or target", "Measured", "Result"],
        [
            [section.title, check.what, check.measured, "ok" if check.ok else "**missed**"]
            for section in sections
            for check in section.checks
        ],
    )
    parts = [
        "# Benchmarks",
        "",
        f"{WRITTEN} to measure again, run "
        f"`{COMMAND}` (it prints this report) or `.venv/bin/python bench/run.py --write` "
        "(it also rewrites this file). The code is in `bench/`.",
        "",
        f"- Date: {started:%Y-%m-%d %H:%M} UTC ({elapsed:.0f} s for the whole run)",
        f"- Command: `{COMMAND}` (`.venv/bin/python bench/run.py`)",
        *(f"- {key}: {value}" for key, value in info.items()),
        f"- Load average (1, 5, 15 min) before / after the run: {loads[0]} / {loads[1]}",
        "",
        "## Summary",
        "",
        summary,
    ]
    for section in sections:
        parts += ["", f"## {section.title}", "", section.markdown.strip()]
    if NOTES.exists():
        # Comparisons with earlier runs are written by hand and kept across rewrites.
        parts += ["", NOTES.read_text().strip()]
    return "\n".join(parts) + "\n"


def update(
    doc: str,
    sections: list[Section],
    started: datetime.datetime,
    elapsed: float,
    loads: tuple[str, str],
    command: str,
) -> str:
    """docs/benchmarks.md with these sections (and their rows of the summary) replaced, or
    added before the notes; the notes are taken from bench/notes.md again."""
    doc = doc.split("\n## Notes\n", 1)[0].rstrip("\n")
    doc = doc.replace("Written by `bench/run.py --write` from one run;", WRITTEN, 1)
    blocks = doc.split("\n## ")
    head, rest = blocks[0], [f"## {block}" for block in blocks[1:]]
    for section in sections:
        dated = (
            f"_Measured on {started:%Y-%m-%d %H:%M} UTC by `.venv/bin/python {command}` "
            f"({elapsed:.0f} s; load average before / after: {loads[0]} / {loads[1]}), on the "
            "machine described at the top._\n\n" + section.markdown.strip()
        )
        block = f"## {section.title}\n\n{dated}\n"
        titled = [n for n, text in enumerate(rest) if text.startswith(f"## {section.title}\n")]
        if titled:
            rest[titled[0]] = block
        else:
            rest.append(block)
        rows = [
            f"| {section.title} | {check.what} | {check.measured} | "
            f"{'ok' if check.ok else '**missed**'} |"
            for check in section.checks
        ]
        rest = [_with_rows(text, section.title, rows) for text in rest]
    parts = [head.rstrip("\n"), *(text.rstrip("\n") for text in rest)]
    if NOTES.exists():
        parts.append(NOTES.read_text().strip())
    return "\n\n".join(parts) + "\n"


def _with_rows(block: str, title: str, rows: list[str]) -> str:
    """The summary block with the rows of `title` replaced (or added at its end)."""
    if not block.startswith("## Summary\n"):
        return block
    lines = block.rstrip("\n").split("\n")
    mine = [n for n, line in enumerate(lines) if line.startswith(f"| {title} |")]
    at = mine[0] if mine else len(lines)
    kept = [line for line in lines if not line.startswith(f"| {title} |")]
    return "\n".join(kept[:at] + rows + kept[at:]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
