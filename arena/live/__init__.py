"""The live view of a running tournament (``arena serve``): games in play decision by decision,
progress, standings, and the leaderboard once the run ends.

The runner writes nothing extra unless someone watches: ``arena serve`` makes the live folder
beside the database (:func:`arena.live.files.live_folder`), and only while it exists does each
game in play keep a small file of its decisions there (:mod:`arena.live.files`).
"""
