from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from roboracer.accounts.forms import AdminAddUserForm, AdminUserForm
from roboracer.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "color", "vacation_from", "vacation_until"]
    search_fields = ["user__username", "display_name"]


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class RoboRacerUserAdmin(UserAdmin):
    """Django's user admin, with the name rules on adding and renaming."""

    form = AdminUserForm
    add_form = AdminAddUserForm
