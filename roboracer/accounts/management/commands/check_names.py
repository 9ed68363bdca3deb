"""Report usernames and display names that break the rules of roboracer/accounts/names.py, with the rename
each would get (the data migration 0003 applied those once); `--fix` applies them. Exits 1 if any is left
unfixed, so it can run as a deployment check."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from roboracer.accounts.models import Profile
from roboracer.accounts.name_repair import repair


class Command(BaseCommand):
    help = "Report (or --fix) usernames and display names that break the name rules."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="rename them (oldest account keeps a shared name)")

    def handle(self, *args, fix: bool, **options):
        with transaction.atomic():
            renames = repair(get_user_model(), Profile, apply=fix)
        for rename in renames:
            self.stdout.write(f"{'renamed' if fix else 'breaks the rules'}: {rename}")
        if not renames:
            self.stdout.write("all names follow the rules")
        elif not fix:
            self.stderr.write(f"{len(renames)} name(s) break the rules; `manage.py check_names --fix` renames them")
            raise SystemExit(1)
