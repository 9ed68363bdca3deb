"""`python -m roboracer_bot` as its user meets it (the trial of issue 41, docs/trials/issue-41): it says whom it
plays as once it starts, and a wrong token, an unreachable site or Ctrl-C end it with one line, not a traceback."""

import logging
import socket

import pytest
from roboracer_bot import __main__ as cli
from roboracer_bot import play

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the probe is closed


def test_a_wrong_token_is_one_line_naming_the_refusal(live_server, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--url", live_server.url, "--token", "rr_wrong"])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert "refused: 403: Invalid token." in err and "profile page" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_an_unreachable_site_is_one_line(capsys):
    url = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(SystemExit) as stop:
        cli.main(["--url", url, "--token", "rr_x"])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"roboracer_bot: cannot reach {url}: ") and "Traceback" not in err


class FakeClient:
    """A unit check of run()'s lines: the account, then an event stream with one challenge in it."""

    base_url = "http://site.example"

    def __init__(self):
        self.accepted = []

    def me(self):
        return "robo"

    def events(self, since):
        return iter([{"type": "challenge", "id": 1, "challenge": {
            "id": 7, "challenger": "ann", "challenged": "robo", "board": "Tiny Yard", "status": "pending"}}])

    def accept(self, challenge_id):
        self.accepted.append(challenge_id)


def test_run_says_whom_it_plays_as_and_what_it_accepts_and_ctrl_c_stops_it_quietly(monkeypatch, caplog, capsys):
    client = FakeClient()
    with caplog.at_level(logging.INFO, logger="roboracer_bot"):
        play.run(client, lambda game: ["1"] * 5)
    assert caplog.messages == ["signed in as robo at http://site.example: waiting for challenges and games",
                               "challenge 7 from ann on Tiny Yard: accepted"]
    assert client.accepted == [7]

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run", interrupted)
    with pytest.raises(SystemExit) as stop:
        cli.main(["--token", "rr_x"])
    assert stop.value.code == 130 and capsys.readouterr().err == "roboracer_bot: stopped\n"
