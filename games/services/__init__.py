"""Every write to a game, one module per question (HackSoft-style services; docs/architecture.md "Layers").

Each service runs in one transaction with the game's row locked. Hidden information (hands, programs before
resolution) is only stored here, never put in an event.

- `locking`: the game's row lock, for every writer (and organisers' actions in their own transaction);
- `publish`: numbered public events, clock readings, "your turn" notices, pushed snapshots, scheduled tasks;
- `lines`: the lines the site writes into a game's chat (ejections, timers) and players' names in them;
- `lobby`: create, join, leave, cancel and start a game, with its timers and seat colours;
- `team_play`: teams in the lobby and at the start;
- `turns`: THE game loop of every kind (start, deal, execute once all are in, resolve, finish), calling the
  game's kind (games.kinds) for its rules;
- `moves`: a seat's move for the turn, whoever sends it (a person over the API or the socket, a computer);
- `setup`: the one policy of whether a game's setting fits what it is for (docs/game-setup.md);
- `rating`: a finished game's rating, a direct call down to ratings in the finishing transaction;
- `ejection`: a player out of a running game (resigned, ejected by a player, the timer or staff);
- `chat`: chat lines and chat commands;
- `timeouts`: a seat past its deadline, by the game's timeout policy;
- `computer_seats`: computer players in seats (added, removed, autopilot);
- `rematch`: play again;
- `organisers`: games the site seats itself and organisers' actions on them (tournaments, the Pyramid).
"""
