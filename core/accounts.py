"""The account a person means by a username they typed: the one lookup every app makes (a
scorekeeper, a director, a guest's account), with the one message for each way it fails."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from core.validators import name_problem, normalize_name


def account_named(username: str, empty: str, *, error: type[Exception]):
    """The account with this username (any case); `error` saying what is wrong otherwise,
    `empty` when nothing was typed."""
    username = username.strip()
    if not username:
        raise error(empty)
    # Checked before the lookup, and looked up as usernames are kept (NFKC): "ａｌｉｃｅ" is alice.
    problem = name_problem(username)
    if problem:
        raise error(problem)
    username = normalize_name(username)
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise error(_("There is no account called “%(name)s”.") % {"name": username})
    return user
