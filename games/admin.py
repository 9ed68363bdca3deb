from django.contrib import admin, messages

from games.models import ChatMessage, Game, GameEvent, Seat, Turn
from games.services import ejection
from roboracer.common.errors import GameError


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "color", "move_left", "game_left", "deadline", "expired", "ejected_at", "archived"]
    readonly_fields = ["move_left", "game_left", "deadline", "expired", "ejected_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "course", "status", "turn", "visibility", "timer_preset", "creator", "created_at"]
    list_filter = ["status", "visibility", "timer_preset"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "user", "deadline", "expired", "ejected_at", "ejected_by"]
    list_filter = ["expired", "game__status"]
    search_fields = ["user__username"]
    actions = ["eject"]

    @admin.action(description="Eject the selected seats")
    def eject(self, request, queryset):
        for seat in queryset.select_related("game"):
            try:
                ejection.staff_eject(user=request.user, game_id=seat.game_id, seat_number=seat.number)
            except GameError as error:
                self.message_user(request, f"game {seat.game_id} seat {seat.number}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"game {seat.game_id}: seat {seat.number} ejected")


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "resolved_at"]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "version", "kind", "created_at"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["game", "user", "text", "system", "created_at"]
    search_fields = ["text", "user__username"]
