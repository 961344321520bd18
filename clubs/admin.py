"""The admin's view of clubs: a club with its members, requests to join, seasons. Members
change on the club's pages (the services lock the club and move its version)."""

from django.contrib import admin

from clubs.models import Club, JoinRequest, Member, Season


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    readonly_fields = ["player", "role", "joined_at"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "owner"]
    search_fields = ["name", "slug", "city"]
    raw_id_fields = ["owner"]
    readonly_fields = ["version"]
    inlines = [MemberInline]


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "created_at"]
    raw_id_fields = ["club", "user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts", "ends", "best_nights", "closed_at"]
    list_filter = ["club"]
    raw_id_fields = ["club"]
