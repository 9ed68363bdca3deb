"""Report usernames and display names that break the rules of roboracer/accounts/names.py, with the rename
each would get (the data migration 0003 applied those once); `--fix` applies them. Also reports names of
different accounts that look alike (TR39 confusable skeletons, names.lookalike_keys), which it never renames.
Exits 1 if any name is left breaking the rules or any lookalike pair remains, so it can run as a deployment
check."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from roboracer.accounts.models import Profile
from roboracer.accounts.name_repair import repair, stored_lookalikes


class Command(BaseCommand):
    help = "Report (or --fix) usernames and display names that break the name rules."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="rename them (oldest account keeps a shared name)")

    def handle(self, *args, fix: bool, **options):
        with transaction.atomic():
            renames = repair(get_user_model(), Profile, apply=fix)
            similar = stored_lookalikes(get_user_model(), Profile)
        for rename in renames:
            self.stdout.write(f"{'renamed' if fix else 'breaks the rules'}: {rename}")
        for pair in similar:
            self.stdout.write(f"looks alike (not renamed): {pair}")
        if not renames and not similar:
            self.stdout.write("all names follow the rules")
        failed = False
        if renames and not fix:
            self.stderr.write(f"{len(renames)} name(s) break the rules; `manage.py check_names --fix` renames them")
            failed = True
        if similar:
            self.stderr.write(f"{len(similar)} pair(s) of names look alike; rename one of each by hand (admin)")
            failed = True
        if failed:
            raise SystemExit(1)
