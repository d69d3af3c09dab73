"""Matches, from creation to record, in modules named after what they do:

* ``scheduling``: creating matches (tables of valid versions), seeds, limits, duplicate sets;
* ``claiming``: one attempt takes the match with a conditional update and keeps it alive;
* ``playing``: the bots' files in the sandbox, the engine, the result (``match_play``);
* ``recording``: the result, seats, replay and logs written exactly once, and rated;
* ``sweeping``: what dead workers and lost messages left behind, queued again.

The names other code uses are re-exported here.
"""

from arena.services.matches.claiming import (
    CONNECTION_LOST,
    MAX_ATTEMPTS,
    MatchBusy,
    PlatformError,
    heartbeat_interval_s,
    record_backoff_s,
    record_tries,
    stale_after_s,
)
from arena.services.matches.playing import (
    WORKDIR_PREFIX,
    WORKDIR_PREFIXES,
    match_load,
    match_play,
    sandbox_config,
    source_name,
    version_bytes,
    version_cache_clear,
    version_dirs_sweep,
    version_files,
    version_materialize,
)
from arena.services.matches.recording import tournament_check_finished
from arena.services.matches.scheduling import (
    OPEN_STATUSES,
    Built,
    bot_seeds,
    duplicate_build,
    duplicate_create,
    match_build,
    match_create,
    match_engine_kwargs,
    match_limits,
    match_limits_of,
    matches_save,
    new_seed,
    seconds_setting,
)
from arena.services.matches.sweeping import match_sweep_stuck, match_workdirs_sweep

__all__ = [
    "CONNECTION_LOST",
    "MAX_ATTEMPTS",
    "OPEN_STATUSES",
    "WORKDIR_PREFIX",
    "WORKDIR_PREFIXES",
    "Built",
    "MatchBusy",
    "PlatformError",
    "bot_seeds",
    "duplicate_build",
    "duplicate_create",
    "heartbeat_interval_s",
    "match_build",
    "match_create",
    "match_engine_kwargs",
    "match_limits",
    "match_limits_of",
    "match_load",
    "match_play",
    "match_sweep_stuck",
    "match_workdirs_sweep",
    "matches_save",
    "new_seed",
    "record_backoff_s",
    "record_tries",
    "sandbox_config",
    "seconds_setting",
    "source_name",
    "stale_after_s",
    "tournament_check_finished",
    "version_bytes",
    "version_cache_clear",
    "version_dirs_sweep",
    "version_files",
    "version_materialize",
]
