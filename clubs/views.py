"""Pages of a club: its page, members, invitations and nights (stubs until built)."""

from django.http import Http404, HttpRequest, HttpResponse


def club_list(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def club_new(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def club_detail(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def club_edit(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def members(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def member_action(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def new_invitation(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def invitation_qr(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def join(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def ask_to_join(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def join_request(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def night_new(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def roll_call(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet
