"""Names stored before the rules of roboracer/accounts/names.py: renamed deterministically (see
roboracer/accounts/name_repair.py), each rename printed; `manage.py check_names` reports any left."""

from django.conf import settings
from django.db import migrations


def repair_names(apps, schema_editor):
    from roboracer.accounts.name_repair import repair

    user_model = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    renames = repair(user_model, apps.get_model("accounts", "Profile"), apply=True)
    for rename in renames:
        print(f"\n  accounts.0003_repair_names: {rename}", end="")


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_display_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(repair_names, migrations.RunPython.noop)]
