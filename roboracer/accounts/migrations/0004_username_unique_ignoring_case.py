"""Usernames unique ignoring case in the database too: a unique index on lower(username) of Django's user
table (usernames are ASCII, roboracer/accounts/names.py, so SQLite's ASCII lower() and PostgreSQL's agree)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_repair_names"),
        # After Django's last migration of the user table: on SQLite an AlterField rebuilds the table and
        # drops indexes the migration state does not know, this one among them.
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX accounts_username_ignoring_case ON auth_user (lower(username))",
            "DROP INDEX accounts_username_ignoring_case",
        )
    ]
