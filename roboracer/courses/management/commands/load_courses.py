from django.core.management.base import BaseCommand

from roboracer.courses.services import load_bundled_courses


class Command(BaseCommand):
    help = "Load or update the courses bundled with the engine (idempotent)."

    def handle(self, *args, **options):
        courses = load_bundled_courses()
        self.stdout.write(f"{len(courses)} bundled course(s): {', '.join(c.slug for c in courses)}")
