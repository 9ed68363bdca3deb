"""Staff create pyramids (name, pool, rules) and look at places, challenges and history here."""

from django import forms
from django.contrib import admin

from games.services import setup as game_setup
from roboracer.pyramid.models import Challenge, Entry, Place, Pyramid
from roboracer.pyramid.selectors import pool_fits


class PyramidForm(forms.ModelForm):
    class Meta:
        model = Pyramid
        fields = "__all__"  # noqa: DJ007 (the admin's own form: every field it shows)

    def clean_courses(self):
        """The pool holds only courses a challenge's game can be played on (games.services.setup)."""
        courses = self.cleaned_data["courses"]
        unfit = [f"{course.name}: " + (game_setup.refusal(course_data=course.data, use=game_setup.PYRAMID, seats=2)
                                       or "") for course in courses if not pool_fits(course=course)]
        if unfit:
            raise forms.ValidationError("; ".join(unfit))
        return courses


@admin.register(Pyramid)
class PyramidAdmin(admin.ModelAdmin):
    form = PyramidForm
    list_display = ("name", "slug", "starting_points", "max_defences", "timer_preset", "timeout_policy")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("courses",)


@admin.register(Place)
class PlaceAdmin(admin.ModelAdmin):
    list_display = ("user", "pyramid", "row", "position", "points")
    list_filter = ("pyramid",)
    search_fields = ("user__username",)
    # Moving players by hand would break the rows' rules: places change only through challenges.
    readonly_fields = ("pyramid", "user", "row", "position", "joined_at")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "pyramid", "challenger", "defender", "cost", "status", "game", "created_at")
    list_filter = ("pyramid", "status")
    raw_id_fields = ("challenger", "defender", "game")
    readonly_fields = ("pyramid", "challenger", "defender", "game", "cost", "status", "challenger_from",
                       "defender_from", "challenger_to", "defender_to", "points_change", "created_at", "ended_at")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("at", "pyramid", "kind", "user", "other")
    list_filter = ("pyramid", "kind")
    readonly_fields = ("pyramid", "kind", "user", "other", "challenge", "detail", "at")
