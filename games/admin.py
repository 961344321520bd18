"""Admin pages for looking into matches; changes go through the score sheet."""

from django.contrib import admin

from games.models import Entry, Match, Player, Round, Seat
from games.visibility import names_changed


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "added_by", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "added_by"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        # What a player shows of their name (hidden or not, and which): the pages cached
        # with names are read again.
        if {"name", "private", "user"} & set(form.changed_data):
            names_changed([obj.pk])


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["total", "place", "lost_in_round"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "preset", "status", "created_by", "updated_at"]
    list_filter = ["status", "preset"]
    raw_id_fields = ["created_by", "rematch_of"]
    filter_horizontal = ["scorekeepers"]
    inlines = [SeatInline]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    readonly_fields = ["seat", "kind", "cards", "points", "score", "total", "event"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "entered_by", "created_at"]
    raw_id_fields = ["match", "entered_by"]
    inlines = [EntryInline]
