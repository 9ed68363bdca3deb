"""`python -m roboracer_bot --token rr_... --strategy lookahead`: play every game this bot account starts."""

from __future__ import annotations

import argparse
import logging
import os

from .client import BROKEN, ApiError, Client
from .play import play_game, run
from .strategies import STRATEGIES, strategy


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="roboracer_bot", description=__doc__)
    parser.add_argument("--url", default=os.environ.get("ROBORACER_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("ROBORACER_TOKEN"), help="or ROBORACER_TOKEN")
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="random")
    parser.add_argument("--game", type=int, help="play this game only, then stop")
    parser.add_argument("--games", type=int, help="stop after this many games have finished")
    parser.add_argument("--max-turns", type=int, help="resign once a game passes this turn")
    parser.add_argument("--decline", action="store_true", help="decline challenges instead of accepting them")
    parser.add_argument("--since", type=int, default=0, help="the last event id already handled")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token is needed: --token or ROBORACER_TOKEN (make one on your profile page)")
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(asctime)s %(message)s")
    client, chosen = Client(args.url, args.token), strategy(args.strategy)
    # A refusal or an unreachable site ends the program with one line that says why, not a traceback; so does
    # Ctrl-C, the way to stop it.
    try:
        if args.game is not None:
            final = play_game(client, args.game, chosen, max_turns=args.max_turns)
            logging.getLogger("roboracer_bot").info("game %s: %s", args.game, final.get("status"))
            return
        run(client, chosen, accept=not args.decline, games=args.games, max_turns=args.max_turns, since=args.since)
    except ApiError as error:
        hint = (" (is the token right? A revoked or expired token stops working; make one on your profile page)"
                if error.status in (401, 403) else "")
        parser.exit(1, f"roboracer_bot: {args.url} refused: {error}{hint}\n")
    except BROKEN as error:
        parser.exit(1, f"roboracer_bot: cannot reach {args.url}: {getattr(error, 'reason', None) or error}\n")
    except KeyboardInterrupt:
        parser.exit(130, "roboracer_bot: stopped\n")


if __name__ == "__main__":
    main()
