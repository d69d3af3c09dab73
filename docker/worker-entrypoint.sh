#!/bin/sh
# The worker container's entrypoint (docker/compose.yml, docker/compose.worker.yml).
#
# Runs as root with CAP_SYS_ADMIN for a moment, to give bubblewrap and the per-bot cgroups what
# Docker withholds, then drops to the image's `arena` user with an empty capability bounding
# set and no_new_privs before anything else runs. Nothing untrusted runs before the drop.
#
# 1. /proc/sys read-write: bwrap --disable-userns writes user.max_user_namespaces=1 in each
#    bot's user namespace, and Docker mounts /proc/sys read-only. (`security_opt:
#    systempaths=unconfined` would do the same, but Compose v1 rejects it.) Only root could
#    write the host's own sysctls there, and no root process is left after the drop.
# 2. A delegated cgroup subtree, so bots get the same memory and task limits as on bare
#    metal: the container's cgroup is mounted read-only; remount it writable (this container's
#    subtree only) and hand the worker a part of it. cgroup v1: `arena-sandbox` below the
#    container's cgroup. cgroup v2 (private cgroup namespace, Docker's default there): every
#    process into `arena/worker`, memory+pids enabled, bots under `arena/bots`
#    (ARENA_SANDBOX_CGROUP_ROOT=../bots), as cgroup v2 allows no controllers on a group with
#    processes. The v2 path is written to the kernel's delegation rules but was only tried on
#    a cgroup v1 host. Without either the sandbox runs with rlimits only (arena_check --sandbox says so).
set -eu

log() { echo "worker-entrypoint: $*" >&2; }

if [ "$(id -u)" = 0 ]; then
  if mount -o remount,rw,bind /proc/sys 2>/dev/null; then
    log "/proc/sys writable for bubblewrap"
  else
    log "cannot remount /proc/sys (needs cap_add: SYS_ADMIN); the sandbox check will say why"
  fi

  delegated=""
  if [ -f /sys/fs/cgroup/cgroup.controllers ] && [ "$(cat /proc/self/cgroup)" != "0::/" ]; then
    # cgroup v2 without a private cgroup namespace: /sys/fs/cgroup is the host's whole tree.
    log "cgroup v2 without a private cgroup namespace (cgroup: host?): not touching it"
  elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    # cgroup v2: /arena (the worker's, like a systemd Delegate= unit) with /arena/worker for
    # every process and /arena/bots for the bots. Moving a bot between the two needs write
    # access to their common ancestor's cgroup.procs, hence /arena rather than the root.
    cg=/sys/fs/cgroup
    if { mount -o remount,rw,bind "$cg" 2>/dev/null || mount -o remount,rw "$cg" 2>/dev/null; } \
      && mkdir -p "$cg/arena/worker" "$cg/arena/bots" 2>/dev/null; then
      for pid in $(cat "$cg/cgroup.procs"); do
        echo "$pid" > "$cg/arena/worker/cgroup.procs" 2>/dev/null || true
      done
      if echo "+memory +pids" > "$cg/cgroup.subtree_control" 2>/dev/null \
        && echo "+memory +pids" > "$cg/arena/cgroup.subtree_control" 2>/dev/null \
        && echo "+memory +pids" > "$cg/arena/bots/cgroup.subtree_control" 2>/dev/null; then
        chown -R arena "$cg/arena"
        export ARENA_SANDBOX_CGROUP_ROOT="${ARENA_SANDBOX_CGROUP_ROOT:-../bots}"
        delegated="v2 $cg/arena/bots"
      fi
    fi
  else
    # cgroup v1: the memory and pids hierarchies, each showing this container's group as /
    ok=1
    for controller in memory pids; do
      dir=/sys/fs/cgroup/$controller
      if [ -d "$dir" ] && mount -o remount,rw,bind "$dir" 2>/dev/null \
        && mkdir -p "$dir/arena-sandbox" && chown -R arena "$dir/arena-sandbox"; then
        :
      else
        ok=0
      fi
    done
    [ "$ok" = 1 ] && delegated="v1 memory+pids arena-sandbox"
  fi
  if [ -n "$delegated" ]; then
    log "cgroup subtree delegated to the worker ($delegated)"
  else
    log "no writable cgroup here: bots get rlimits only (see docs/deploy.md)"
  fi

  exec setpriv --reuid=arena --regid=arena --init-groups \
    --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"
fi
exec "$@"
