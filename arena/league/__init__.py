"""A continuous league: entrants come and go, and one long-running process decides which table to
play next. :mod:`arena.league.matchmaking` is that decision, a pure function of the league's
state (docs/league.md, "Matchmaking"); :mod:`arena.league.ratings` turns a rating fit into the
state it reads."""
