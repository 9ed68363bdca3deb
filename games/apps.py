from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games import receivers
        from roboracer.courses import signals as course_signals
        from roboracer.ratings import signals as rating_signals

        # The apps below games ask, games answers (docs/architecture.md "Layers").
        rating_signals.is_rated.connect(receivers.is_rated, dispatch_uid="games.is_rated")
        rating_signals.moved_seat_ids.connect(receivers.moved_seat_ids, dispatch_uid="games.moved_seat_ids")
        course_signals.course_games.connect(receivers.course_games, dispatch_uid="games.course_games")
        user_logged_out.connect(receivers.close_sockets, dispatch_uid="games.close_sockets")
