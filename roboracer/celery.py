"""The Celery app: Redis broker in every mode, tasks found in the Django apps."""

import os

from celery import Celery
from celery.signals import beat_embedded_init, task_postrun, task_prerun, worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")

app = Celery("roboracer")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _release_connections(sender=None, **kwargs) -> None:
    """Around each task, what Django does around each request: hand the connection back to the pool, or drop
    it if it broke (with CELERY_DB_REUSE_MAX, Celery itself no longer closes them). Not for a task run eagerly
    inside the caller's transaction (tests), as Celery's own fixup."""
    from django.db import close_old_connections

    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


@worker_init.connect
@worker_process_init.connect
def _settle_gc(**kwargs) -> None:
    """See roboracer.gc_tuning; in the prefork parent, freezing also keeps the children's copy-on-write pages
    shared."""
    from roboracer import gc_tuning

    gc_tuning.settle()


@beat_embedded_init.connect
def _beat_dies_with_worker(**kwargs) -> None:
    """A beat embedded in a worker (`worker --beat`) is a child process of it: SIGKILL the worker and the beat
    would live on, orphaned, and go on scheduling. Linux ends it with its worker (roboracer.parent_death)."""
    from billiard.process import current_process

    from roboracer import parent_death

    # The worker as it was when it started this process (not getppid(): it may already be gone).
    parent_death.die_with_parent(getattr(current_process(), "_parent_pid", None) or os.getppid())
