"""Isolation: the tables' clock against hanging outside services (issue 35).

A live table of four bots (one an away person's seat, played at the bots' pace) and a table
whose person lets a 2 s move timer run out, played by a real play worker on a throw-away
SQLite database; 20 s alone (the baseline), then 20 s with a real tasks' worker sending what
is told meanwhile (10 people, each told 4 times, by e-mail and by Telegram) to a mail server
that accepts connections and never answers and to a Bot API that never answers (each call
given up after 1 s); then the servers answer again where they were. The scenario is
tests/isolation.py, which tests/test_isolation.py runs smaller. Targets: the longest gap between
two bot moves at most 0.5 s more than in the baseline; each timer's move at most 0.5 s late;
every notification delivered on both channels, each send received once.
"""

from __future__ import annotations

import statistics

from bench import harness
from bench.common import Check, Options, Section, load_average, log, ms

NAME = "isolation"
TITLE = "Isolation: bots and timers while the mail server and Telegram hang"
SECONDS = 20.0
PEOPLE = 10
TELLS = 4
MORE_AT_MOST = 0.5


def run(options: Options) -> Section:
    harness.setup_django()
    from tests import isolation

    load = load_average()
    outcome = isolation.run(
        harness.environment()["DATABASE_URL"], seconds=SECONDS, people=PEOPLE, tells=TELLS
    )
    base, loaded = outcome.baseline, outcome.loaded
    late = max(base.timer_lateness + loaded.timer_lateness, default=0.0)
    log(f"[{NAME}] longest gap {ms(base.longest_gap)} alone, {ms(loaded.longest_gap)} loaded")
    text = (
        f"Load average at the start: {load}. Reproduce with "
        "`.venv/bin/python bench/run.py --only isolation`.\n\n"
        f"Bot pace {isolation.BOT_DELAY:g} s; each phase {SECONDS:g} s; {PEOPLE} people told "
        f"{TELLS} times each during the second ({outcome.deliveries} deliveries).\n\n"
        "| Phase | bot moves | median gap | longest gap | timer moves | latest timer |\n"
        "|---|---|---|---|---|---|\n"
        + "\n".join(
            f"| {name} | {len(phase.bot_gaps) + 1} | {ms(statistics.median(phase.bot_gaps))} | "
            f"{ms(phase.longest_gap)} | {len(phase.timer_lateness)} | "
            f"{ms(max(phase.timer_lateness, default=0.0))} |"
            for name, phase in (("alone", base), ("servers hanging", loaded))
        )
        + "\n\n"
        f"While they hung, {outcome.first_attempts_failed} first attempts failed (timeouts). "
        f"Once they answered: {outcome.sent} of {outcome.deliveries} deliveries sent within "
        f"{outcome.settle_seconds:.1f} s (the retries' backoff brought forward); the mail "
        f"server received {outcome.messages['email']} messages for "
        f"{outcome.groups['email']} sends, the Bot API {outcome.messages['telegram']} for "
        f"{outcome.groups['telegram']} (several due together for one person go as one)."
    )
    checks = [
        Check(
            f"longest gap between bot moves, hanging servers vs alone, at most +{MORE_AT_MOST:g} s",
            f"{ms(loaded.longest_gap)} vs {ms(base.longest_gap)}",
            loaded.longest_gap <= base.longest_gap + MORE_AT_MOST,
        ),
        Check(
            f"each move timer runs out at most {MORE_AT_MOST:g} s late",
            ms(late),
            bool(loaded.timer_lateness) and late <= MORE_AT_MOST,
        ),
        Check(
            "every notification delivered on both channels after the hang",
            f"{outcome.sent} / {outcome.deliveries}",
            outcome.sent == outcome.deliveries == 2 * outcome.notifications,
        ),
        Check(
            "each send received once",
            f"{outcome.messages} for {outcome.groups}",
            outcome.messages == outcome.groups,
        ),
    ]
    return Section(NAME, TITLE, text, checks)
