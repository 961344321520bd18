"""A coach's review of played rounds: what each decision cost its seat (round_review), the
kind of mistake it was (kinds), what each seat saw before it (positions), and practice at the
positions judged (practice). Pure Python, no Django.

    from cards101.analysis import review
    for decision in review(start, moves, seed=1):
        print(decision.index, decision.seat, decision.played, decision.best, decision.label)
"""

from cards101.analysis.kinds import KINDS, NEAR_THE_END, NEARLY_OUT, kind_of
from cards101.analysis.positions import ViewsBefore
from cards101.analysis.round_review import (
    ACCURACY_SCALE,
    BEATEN,
    BLUNDER,
    BUDGET,
    CAUTION,
    INACCURACY,
    LABELS,
    MAX_DEALS,
    MIN_DEALS,
    MISTAKE,
    NOISE,
    PLAYOUT_MOVES,
    RACE_AFTER,
    ROUND_BUDGET,
    SIGNIFICANCE,
    THRESHOLDS,
    WORK_PER_SECOND,
    Decision,
    Label,
    accuracy,
    decisions,
    judge,
    label_of,
    review,
    work_for,
)

__all__ = [
    "ACCURACY_SCALE",
    "BEATEN",
    "BLUNDER",
    "BUDGET",
    "CAUTION",
    "INACCURACY",
    "KINDS",
    "LABELS",
    "MAX_DEALS",
    "MIN_DEALS",
    "MISTAKE",
    "NEARLY_OUT",
    "NEAR_THE_END",
    "NOISE",
    "PLAYOUT_MOVES",
    "RACE_AFTER",
    "ROUND_BUDGET",
    "SIGNIFICANCE",
    "THRESHOLDS",
    "WORK_PER_SECOND",
    "Decision",
    "Label",
    "ViewsBefore",
    "accuracy",
    "decisions",
    "judge",
    "kind_of",
    "label_of",
    "review",
    "work_for",
]
