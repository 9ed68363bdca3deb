"""The Celery app: Redis broker in every mode, tasks found in the Django apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")

app = Celery("roboracer")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
