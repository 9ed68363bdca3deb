from django.contrib import admin

from games.models import Game, GameEvent, Seat, Turn


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "course", "status", "turn", "creator", "created_at"]
    list_filter = ["status"]
    inlines = [SeatInline]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "resolved_at"]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "version", "kind", "created_at"]
