"""The playground: write a bot on the site, play it unrated in the sandbox, then upload it.

* A **draft** is an author's source for one game (:func:`draft_save`): kept per author and
  game, private to its author, never a version.
* A **run** (:func:`run_create`) checks the draft exactly as an upload is checked
  (:func:`arena.services.bots.bot_file_check`: size, syntax, ``act``, imports; a refusal
  names its line), then queues 1-:data:`MAX_MATCHES` unrated matches against the opponents
  chosen (built-in bots, the author's own versions, any bot on the game's ladder), one
  ``play_playground_match`` task each, on the ``playground`` queue that workers read before
  validations and ladder work. Nothing is stored or queued for a refused run.
* Playing (:func:`playground_match_play`) is a real match in the sandbox with the arena's
  limits and keyed bot seeds (``matches.match_engine_kwargs``), so a draft behaves there as
  it will on the ladder. Its result, replay and the draft's own output are kept on the
  :class:`PlaygroundMatch`; no ``Match``, seat, rating or statistic is written, so a
  playground match never touches ratings, ladder or version statistics, or pausing.

Clean-up (:func:`playground_cleanup`, the hourly ``clean_up_playground`` task): an author
keeps their newest ``ARENA_PLAYGROUND_KEEP_RUNS`` runs (100) of at most
``ARENA_PLAYGROUND_KEEP_DAYS`` days (30), replays and output with them; drafts stay.

Limits: ``ARENA_PLAYGROUND_RUNS_PER_HOUR`` runs per author in any rolling hour (beyond it
:class:`TooManyRequests`, a 429 with ``Retry-After``), checked before the source is, so a
run over it costs no check; drafts over ``ARENA_UPLOAD_MAX_BYTES`` are refused like uploads.
Runs asked for, refused ones included, are limited where they are asked for
(``ARENA_THROTTLE_PLAYGROUND_CHECKS``, ``arena.http.throttles``): each costs a check.
"""

from arena.services.playground.playing import playground_match_play
from arena.services.playground.runs import (
    MAX_MATCHES,
    MAX_OPPONENTS_NAMED,
    Opponent,
    draft_save,
    opponent_resolve,
    run_create,
    runs_per_hour,
    source_size_check,
)
from arena.services.playground.sweeping import (
    keep_days,
    keep_runs,
    playground_cleanup,
    playground_sweep,
)

__all__ = [
    "MAX_MATCHES",
    "MAX_OPPONENTS_NAMED",
    "Opponent",
    "draft_save",
    "keep_days",
    "keep_runs",
    "opponent_resolve",
    "playground_cleanup",
    "playground_match_play",
    "playground_sweep",
    "run_create",
    "runs_per_hour",
    "source_size_check",
]
