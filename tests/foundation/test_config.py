"""Settings come from the environment, and a bad one stops the arena with one clear line."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def manage(*args, env, timeout=60):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG"}
    }
    clean["DJANGO_SETTINGS_MODULE"] = "arena.settings"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=timeout,
    )


def one_line(result):
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_debug_off_without_secret_key_refuses_to_start(tmp_path):
    result = manage("check", env={"DEBUG": "0", "ARENA_DATA_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert "SECRET_KEY is not set and DEBUG is off" in one_line(result)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nonsense", "DATABASE_URL='nonsense' is not a URL"),
        ("mysqlx://u@h/db", "DATABASE_URL"),
        ("postgres://user@localhost:5432", "names no database"),
    ],
)
def test_a_bad_database_url_is_one_line(tmp_path, url, message):
    result = manage(
        "check", env={"DEBUG": "1", "DATABASE_URL": url, "ARENA_DATA_DIR": str(tmp_path)}
    )
    assert result.returncode != 0
    assert message in one_line(result)


def test_a_bad_redis_url_is_one_line(tmp_path):
    result = manage(
        "check", env={"DEBUG": "1", "REDIS_URL": "http://x", "ARENA_DATA_DIR": str(tmp_path)}
    )
    assert result.returncode != 0
    assert "REDIS_URL='http://x' must start with redis://" in one_line(result)


@pytest.mark.slow
def test_an_unreachable_redis_in_production_mode_is_one_line(tmp_path):
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "x" * 50,
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "ARENA_DATA_DIR": str(tmp_path),
    }
    result = manage("arena_check", env=env)  # the broker is checked with or without tables
    assert result.returncode != 0
    assert "cannot reach the broker at redis://127.0.0.1:1/0" in one_line(result)


def test_a_bad_number_is_one_line(tmp_path):
    result = manage(
        "check",
        env={"DEBUG": "1", "ARENA_UPLOAD_MAX_BYTES": "lots", "ARENA_DATA_DIR": str(tmp_path)},
    )
    assert "ARENA_UPLOAD_MAX_BYTES='lots' is not an integer" in one_line(result)


@pytest.mark.slow
def test_defaults_need_no_server(tmp_path):
    env = {"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    assert manage("migrate", "-v0", env=env).returncode == 0
    result = manage("arena_check", env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "arena.sqlite3").exists()


def test_celery_is_configured_for_reliable_json_tasks():
    from workers.celery import app

    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.task_time_limit > conf.task_soft_time_limit > 0


@pytest.mark.slow
def test_demo_content_is_off_in_production_and_on_in_development(tmp_path):
    show = (
        "from django.conf import settings as s; print(s.ARENA_DEMO_ADMIN, s.ARENA_DEMO_TOURNAMENT)"
    )
    prod = manage(
        "shell",
        "--no-imports",
        "-c",
        show,
        env={"DEBUG": "0", "SECRET_KEY": "x" * 50, "ARENA_DATA_DIR": str(tmp_path)},
    )
    dev = manage(
        "shell", "--no-imports", "-c", show, env={"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    )
    assert prod.stdout.split() == ["False", "False"], prod.stderr
    assert dev.stdout.split() == ["True", "True"], dev.stderr


@pytest.mark.slow
def test_forwarded_proto_is_believed_only_when_asked_and_behind_a_trusted_proxy(tmp_path):
    base = {"DEBUG": "0", "SECRET_KEY": "x" * 50, "ARENA_DATA_DIR": str(tmp_path)}
    show = (
        "from django.conf import settings as s; print(getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    )

    assert manage("shell", "--no-imports", "-c", show, env=base).stdout.strip() == "None"
    both = {**base, "ARENA_FORWARDED_PROTO": "1", "ARENA_TRUSTED_PROXIES": "2"}
    assert (
        manage("shell", "--no-imports", "-c", show, env=both).stdout.strip()
        == "('HTTP_X_FORWARDED_PROTO', 'https')"
    )
    alone = manage("check", env={**base, "ARENA_FORWARDED_PROTO": "1"})
    assert alone.returncode != 0
    assert "ARENA_FORWARDED_PROTO=1" in one_line(alone)
    assert "ARENA_TRUSTED_PROXIES=0" in one_line(alone)


@pytest.mark.slow
def test_arena_check_sandbox_reports_the_limits_in_force(tmp_path):
    env = {"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    assert manage("migrate", "-v0", env=env).returncode == 0
    result = manage("arena_check", "--sandbox", env=env)
    if "bubblewrap not found" in result.stderr and os.environ.get("CI") != "true":
        pytest.skip("bubblewrap is not installed (make test installs it)")
    assert result.returncode == 0, result.stderr
    layers = {
        line.split(":", 1)[0] for line in result.stdout.splitlines() if line.startswith("sandbox ")
    }
    assert {"sandbox namespaces", "sandbox seccomp", "sandbox cgroups", "sandbox rlimits"} <= layers
    off = manage("arena_check", "--sandbox", env={**env, "ARENA_SANDBOX_CGROUP": "off"})
    assert "sandbox cgroups: off (ARENA_SANDBOX_CGROUP=off): rlimits only" in off.stdout


def _worker_started(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """A Celery worker started with ``settings`` (data in ``tmp_path``, no database, broker
    or secret of the test run), run until it exits (two minutes at the most)."""
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}
    }
    env.update(DEBUG="1", ARENA_DATA_DIR=str(tmp_path), **settings)
    return subprocess.run(
        [sys.executable, "-m", "celery", "-A", "workers", "worker", "-c", "1", "-l", "info"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.slow
def test_a_worker_that_cannot_sandbox_exits_before_taking_a_task(tmp_path):
    """Finding 2 of issue 20: no task is consumed, the reason is one line, the exit code is 78."""
    result = _worker_started(tmp_path, ARENA_SANDBOX_BWRAP=str(tmp_path / "no-bwrap"))
    assert result.returncode == 78, result.stderr[-2000:]
    assert "refusing to take tasks: bubblewrap not found" in result.stderr
    assert "ready." not in result.stderr  # Celery's line once it consumes


@pytest.mark.slow
def test_a_worker_without_the_bot_packages_refuses_to_take_tasks(tmp_path):
    """Issue 32: a host without numpy would lose every numpy bot's matches for the host's
    fault; the worker exits instead, saying how to install them."""
    result = _worker_started(tmp_path, ARENA_SANDBOX_PACKAGES_DIR=str(tmp_path / "no-packages"))
    if "bubblewrap not found" in result.stderr and os.environ.get("CI") != "true":
        pytest.skip("bubblewrap is not installed (make test installs it)")
    assert result.returncode == 78, result.stderr[-2000:]
    assert "refusing to take tasks: the packages bots may import (numpy==" in result.stderr
    assert "python -m engine packages --install" in result.stderr


@pytest.mark.parametrize("gone", ["ARENA_THROTTLE_TOKENS", "ARENA_THROTTLE_LOGIN_ACCOUNT"])
def test_the_old_password_throttles_are_refused_not_silently_ignored(tmp_path, gone):
    result = manage("check", env={"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path), gone: "5/hour"})
    assert result.returncode != 0
    line = one_line(result)
    assert f"{gone} is no longer read" in line
    assert "ARENA_LOGIN_FAILURES" in line


@pytest.mark.slow
def test_login_waits_must_make_sense(tmp_path):
    env = {"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    result = manage(
        "check", env={**env, "ARENA_LOGIN_WAIT_S": "60", "ARENA_LOGIN_MAX_WAIT_S": "30"}
    )
    assert "ARENA_LOGIN_WAIT_S must be above 0" in one_line(result)
    result = manage("check", env={**env, "ARENA_LOGIN_ACCOUNT_FAILURES": "0"})
    assert "must be at least 1" in one_line(result)
    result = manage("check", env={**env, "ARENA_LOGIN_SHARED_AFTER": "0"})
    assert "ARENA_LOGIN_SHARED_AFTER must be at least 1" in one_line(result)
    for prefix in ("0", "31", "129"):
        result = manage("check", env={**env, "ARENA_LOGIN_IPV6_PREFIX": prefix})
        assert "ARENA_LOGIN_IPV6_PREFIX must be from 32 to 128" in one_line(result)
