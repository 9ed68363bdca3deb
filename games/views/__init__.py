"""Server-rendered pages of games, one module per page or concern: `lobby` (the lobby and its create forms),
`forms` (the forms and their words), `game` (a game's page, its buttons, the invite link), `pages` (how to play,
the demo, the puzzles), `players` (the player page)."""
