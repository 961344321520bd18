"""The one error type of the rules library: a translatable message about a player and round."""

from collections.abc import Callable, Hashable, Mapping
from typing import Any


def gettext_noop(s: str) -> str:
    """Mark a message for translation without translating it, so xgettext can find it."""
    return s


ROUND_PREFIX = gettext_noop("Round %(number)s: %(message)s")

# Params that hold a player's key (a name, a seat...), shown through `names` when rendered.
PLAYER_PARAMS = frozenset({"player", "first", "second"})
# Params that hold several players' keys (a tuple), shown joined by ", ".
PLAYER_LIST_PARAMS = frozenset({"players"})


class RulesError(ValueError):
    """Input that breaks a rule; `template % params` is the English message."""

    def __init__(
        self,
        template: str,
        params: Mapping[str, Any] | None = None,
        *,
        player: Hashable | None = None,
        round: int | None = None,
    ) -> None:
        self.template = template
        self.params = dict(params or {})
        self.player = player
        self.round = round
        super().__init__(template)

    def render(
        self,
        translate: Callable[[str], str] = gettext_noop,
        names: Mapping[Hashable, str] | None = None,
    ) -> str:
        """The message, each template passed through `translate` (e.g. Django's gettext),
        each player shown as `names[key]` when given, else as `str(key)`."""
        params = {key: self._shown(key, value, names) for key, value in self.params.items()}
        message = translate(self.template) % params
        if self.round is None:
            return message
        return translate(ROUND_PREFIX) % {"number": self.round + 1, "message": message}

    @staticmethod
    def _shown(param: str, value: Any, names: Mapping[Hashable, str] | None) -> str | int:
        if param in PLAYER_PARAMS:
            return _player_name(value, names)
        if param in PLAYER_LIST_PARAMS:
            return ", ".join(_player_name(player, names) for player in value)
        if isinstance(value, tuple):
            return ", ".join(str(item) for item in value)
        # Cards (and anything else that is not text or a number) show as their str().
        return value if isinstance(value, int | str) else str(value)

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments are lost by the default exception pickling.
        state = {"player": self.player, "round": self.round}
        return (self.__class__, (self.template, self.params), state)


def _player_name(key: Any, names: Mapping[Hashable, str] | None) -> str:
    # Unhashable keys only come in bad seatings; True would find seat 1 (True == 1).
    if names is not None and isinstance(key, Hashable) and not isinstance(key, bool):
        try:
            return names[key]
        except (KeyError, TypeError):
            pass
    return str(key)
