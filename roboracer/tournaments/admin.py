"""Staff see tournaments in the admin; organisers are granted there too (the "organisers" group, on a user's
page under Permissions)."""

from django.contrib import admin

from roboracer.tournaments.models import Action, Entry, Round, Substitution, Table, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    fk_name = "tournament"
    extra = 0
    raw_id_fields = ("user", "replaced_by")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "organiser", "format", "status", "registration_closes", "stalled_at")
    list_filter = ("status", "format")
    search_fields = ("name",)
    raw_id_fields = ("organiser",)
    inlines = [EntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "created_at", "finished_at")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("round", "number", "game", "bye", "finished")
    raw_id_fields = ("game",)


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "text", "actor", "created_at")
    list_filter = ("kind",)


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    list_display = ("tournament", "entry", "invitee", "status", "created_at", "closed_at")
    list_filter = ("status",)
    raw_id_fields = ("entry", "invitee", "invited_by")
