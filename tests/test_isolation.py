"""A table of bots keeps its pace and a move timer runs out on time while the mail server and
Telegram hang, and every notification caused meanwhile arrives, once, after they answer again
(the scenario: tests/isolation.py; its figures: bench/isolation.py, docs/benchmarks.md)."""

import pytest

from tests import isolation
from tests.servers import database_url

pytestmark = pytest.mark.django_db(transaction=True)

# What the issue allows the hanging servers to add to the longest gap between two bot moves.
MORE_AT_MOST = 0.5


def test_bots_keep_their_pace_and_every_notification_arrives_once_after_the_hang():
    outcome = isolation.run(database_url(), seconds=6.0, people=3, tells=2)
    assert outcome.baseline.bot_gaps and outcome.loaded.bot_gaps, outcome
    assert outcome.loaded.longest_gap <= outcome.baseline.longest_gap + MORE_AT_MOST, outcome
    # The timers ran out on time in both phases.
    assert outcome.baseline.timer_lateness and outcome.loaded.timer_lateness, outcome
    assert max(outcome.loaded.timer_lateness) <= MORE_AT_MOST, outcome
    # The servers hung: the first attempts failed, and nothing reached them then.
    assert outcome.first_attempts_failed > 0, outcome
    # Then everything told was delivered on both channels, each send once.
    assert outcome.deliveries == outcome.sent == 2 * outcome.notifications, outcome
    assert outcome.messages == outcome.groups, outcome
