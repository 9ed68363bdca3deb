"""A made-up third kind of game, Tally, that the tests play through the real services, sockets and API
(tests/games/test_third_kind.py): proof that a kind is its rules, its adapter and one registration."""
