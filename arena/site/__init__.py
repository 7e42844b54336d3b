"""The published site of a tournament: leaderboard, a page per bot, the games list and a replay
viewer for every game, as static files that work from ``file://`` (no server, no request off the
page). :func:`arena.site.build.build_site` writes it."""
