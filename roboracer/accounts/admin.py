from django.contrib import admin

from roboracer.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "color", "vacation_from", "vacation_until"]
    search_fields = ["user__username", "display_name"]
