from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # App start-up and Celery wiring, the two places an import sits inside a function (issue 35).
        from django.contrib.auth.signals import user_logged_out  # noqa: PLC0415

        from games import (
            receivers,  # noqa: PLC0415
            tasks,  # noqa: F401, PLC0415 (the tasks registered in every process: a service sends
        )

        # one by its name, games.services.publish, through the task itself: its options, a test's eager mode)
        from roboracer.accounts import signals as account_signals  # noqa: PLC0415
        from roboracer.courses import signals as course_signals  # noqa: PLC0415

        # The apps below games ask, games answers (docs/architecture.md "Layers").
        course_signals.course_games.connect(receivers.course_games, dispatch_uid="games.course_games")
        user_logged_out.connect(receivers.close_sockets, dispatch_uid="games.close_sockets")
        account_signals.token_revoked.connect(receivers.close_token_streams, dispatch_uid="games.close_token_streams")
