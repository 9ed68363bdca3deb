"""Ratings in the admin: to look at, not to edit (a rating is the sum of its games; docs/ratings.md)."""

from django.contrib import admin

from roboracer.ratings.models import Rating, RatingChange
from roboracer.ratings.selectors import shown


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ["user", "kind", "shown_rating", "mu", "sigma", "games", "updated_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]
    ordering = ["-mu"]

    @admin.display(description="rating")
    def shown_rating(self, obj: Rating) -> int:
        return shown(obj.mu, obj.sigma)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ["game", "user", "kind", "place", "mu_before", "mu_after", "sigma_after", "created_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]
