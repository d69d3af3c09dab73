"""The Docker image and compose files, checked without starting anything.

tests/deploy/test_stack.py starts the stack for real where Docker is available.
"""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.compose import compose_command

DOCKER = Path(__file__).resolve().parents[2] / "docker"


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((DOCKER / "compose.yml").read_text())


def test_compose_has_every_service_with_a_health_check(compose):
    services = compose["services"]
    for name in ("postgres", "redis", "minio", "web", "control", "beat"):
        assert "healthcheck" in services[name], name
    worker = yaml.safe_load((DOCKER / "compose.worker.yml").read_text())["services"]["worker"]
    assert "healthcheck" in worker


def test_compose_keeps_the_database_and_uploaded_bots_in_volumes(compose):
    assert {"pgdata", "bots"} <= set(compose["volumes"])
    assert "pgdata:/var/lib/postgresql/data" in compose["services"]["postgres"]["volumes"]
    assert compose["services"]["minio"]["volumes"] == ["bots:/data"]  # the object store's
    for name in ("setup", "web", "worker", "control", "beat"):  # no host-local disk shared
        assert not compose["services"][name].get("volumes"), name


def test_the_worker_only_file_starts_a_worker_and_nothing_else():
    worker_file = yaml.safe_load((DOCKER / "compose.worker.yml").read_text())
    assert set(worker_file["services"]) == {"worker"}
    worker = worker_file["services"]["worker"]
    assert not worker.get("volumes") and not worker.get("depends_on")
    assert "volumes" not in worker_file
    assert worker["env_file"] == ".env"  # DATABASE_URL, REDIS_URL, ARENA_S3_* of the main host
    main = yaml.safe_load((DOCKER / "compose.yml").read_text())["services"]["worker"]
    assert main["extends"] == {"file": "compose.worker.yml", "service": "worker"}


def test_the_services_file_publishes_only_on_the_chosen_private_address():
    services = yaml.safe_load((DOCKER / "compose.services.yml").read_text())["services"]
    assert set(services) == {"postgres", "redis", "minio"}
    for name, service in services.items():
        (port,) = service["ports"]
        assert port.startswith("${ARENA_SERVICES_BIND:-127.0.0.1}:"), (name, port)


def test_dockerfile_is_slim_installs_bubblewrap_and_drops_root():
    text = (DOCKER / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11\.\d+-slim-bookworm$", text, re.M)  # pinned patch
    assert "bubblewrap" in text
    assert "USER arena" in text
    assert "gunicorn" in text


def test_the_image_builds_the_downloads_at_build_time_outside_the_data_and_the_sources():
    """Issue 32: the kit was built inside a request, with pip writing build/ into the
    read-only /app and reaching for the package index (a 503 in the image). The image builds
    it as root, after the sources are in, into a folder of its own that nothing writes at
    run time (the request only reads: tests/arena/services/test_kits.py)."""
    text = (DOCKER / "Dockerfile").read_text()
    downloads = re.search(r"ARENA_DOWNLOADS_DIR=(\S+)", text)
    assert downloads, "the image names its downloads folder"
    folder = downloads[1]
    assert not folder.startswith(("/data", "/app")), folder
    build = text.index("manage.py arena_kits")
    assert text.index("COPY . .") < build < text.index("USER arena")
    assert folder not in text[text.index("chown") :], "read-only to the arena user"


@pytest.mark.slow
def test_docker_compose_config_accepts_the_file(tmp_path):
    """`config` with the documented env file, in a copy of docker/ (docker/.env is the user's)."""
    command = compose_command()
    if command is None:
        if os.environ.get("CI") == "true" and shutil.which("docker"):
            pytest.fail("the docker client is here but no compose (make test installs it)")
        pytest.skip("no docker compose here")
    copy = tmp_path / "docker"
    shutil.copytree(DOCKER, copy, ignore=shutil.ignore_patterns(".env"))
    shutil.copy(DOCKER / ".env.example", copy / ".env")
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "ARENA_PORT"}}
    for files in (["compose.yml"], ["compose.yml", "compose.services.yml"], ["compose.worker.yml"]):
        result = subprocess.run(
            [*command, *(a for f in files for a in ("-f", str(copy / f))), "config", "--quiet"],
            capture_output=True,
            text=True,
            cwd=copy,  # Compose v1 reads the worker's seccomp profile from the current directory
            env=clean,  # nothing in the shell: every setting comes from the env file
        )
        assert result.returncode == 0, result.stderr


def test_no_security_option_that_compose_v1_rejects():
    """Compose v1 hands security_opt to the engine as it is; only the v2 CLI knows
    `systempaths=unconfined` and the engine refuses it ("invalid --security-opt 2")."""
    options = [
        opt
        for name in ("compose.yml", "compose.worker.yml")
        for service in yaml.safe_load((DOCKER / name).read_text())["services"].values()
        for opt in service.get("security_opt", [])
    ]
    assert "seccomp=seccomp-worker.json" in options  # the worker's, next to the compose file
    assert "seccomp=unconfined" not in options
    assert not [opt for opt in options if opt.startswith("systempaths")]


def test_the_worker_seccomp_profile_lets_bubblewrap_work_and_refuses_the_escapes():
    profile = json.loads((DOCKER / "seccomp-worker.json").read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    refused = {}
    for rule in profile["syscalls"]:
        assert rule["action"] == "SCMP_ACT_ERRNO"
        for name in rule["names"]:
            assert name not in refused, f"{name} listed twice"
            refused[name] = rule["errnoRet"]
    for needed in (
        "mount",
        "umount2",
        "unshare",
        "setns",
        "pivot_root",
        "clone",
        "clone3",
        "sethostname",
        "seccomp",
        "prctl",
        "capset",
        "chroot",
    ):
        assert needed not in refused, f"bubblewrap needs {needed}"
    for escape in (
        "open_by_handle_at",
        "name_to_handle_at",
        "kexec_load",
        "init_module",
        "finit_module",
        "ptrace",
        "process_vm_writev",
        "bpf",
        "keyctl",
        "reboot",
        "userfaultfd",
        "perf_event_open",
    ):
        assert refused.get(escape) == 1, f"{escape} should answer EPERM"
    assert refused["fsopen"] == 38  # ENOSYS: util-linux falls back to mount(2)


def test_the_worker_is_bounded_and_drops_its_start_up_privileges():
    worker = yaml.safe_load((DOCKER / "compose.worker.yml").read_text())["services"]["worker"]
    assert worker["mem_limit"]
    assert isinstance(worker["pids_limit"], int)  # Compose v1 refuses an interpolated string
    assert worker["cap_add"] == ["SYS_ADMIN"]
    assert worker["entrypoint"] == ["sh", "/app/docker/worker-entrypoint.sh"]
    script = (DOCKER / "worker-entrypoint.sh").read_text()
    # Every path through the script as root ends in the drop, with no capability left.
    assert "exec setpriv --reuid=arena --regid=arena --init-groups" in script
    assert "--bounding-set=-all --inh-caps=-all --no-new-privs" in script
    # The health check runs the sandbox probe as the worker's own unprivileged user.
    test = worker["healthcheck"]["test"]
    assert test[:3] == ["CMD", "setpriv", "--reuid=arena"]
    assert "arena_check --sandbox" in test[-1]


def test_credentials_come_from_the_env_file_and_redis_has_a_password(compose):
    services = compose["services"]
    for name, service in services.items():
        environment = service.get("environment") or {}
        for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "POSTGRES_PASSWORD"):
            assert key not in environment, (name, key)
    for name in ("postgres", "redis", "minio", "setup", "web", "control", "beat"):
        assert services[name]["env_file"] == ".env", name
    assert "--requirepass" in " ".join(services["redis"]["command"])
    example = dict(
        line.split("=", 1)
        for line in (DOCKER / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    for key in ("SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD", "DATABASE_URL", "REDIS_URL"):
        assert example.get(key), key
    assert f":{example['POSTGRES_PASSWORD']}@" in example["DATABASE_URL"]
    assert f":{example['REDIS_PASSWORD']}@" in example["REDIS_URL"]
    assert "--env-file" not in (DOCKER / "compose.yml").read_text()  # not needed for ps/down


def test_postgres_is_checked_over_tcp_and_setup_retries(compose):
    services = compose["services"]
    assert "-h 127.0.0.1" in " ".join(services["postgres"]["healthcheck"]["test"])
    setup = " ".join(services["setup"]["command"])
    assert "for try in" in setup and "sleep" in setup


def image_is_ours(image):
    return image.startswith("${ARENA_IMAGE:-lie21-arena")


def test_every_image_is_pinned_to_a_release_not_a_moving_major(compose):
    """PostgreSQL numbers its releases major.minor (16.6); the others major.minor.patch."""
    for name, service in compose["services"].items():
        if "image" not in service or image_is_ours(service["image"]):
            continue
        image = service["image"]
        if name == "minio":  # MinIO names releases by date
            assert re.fullmatch(r"minio/minio:RELEASE\.[0-9TZ-]+", image), image
            continue
        assert re.fullmatch(r"[a-z]+:\d+\.\d+(\.\d+)?-bookworm", image), (name, image)


def test_dockerignore_keeps_history_tests_venv_and_data_out_of_the_image():
    ignored = set((DOCKER.parent / ".dockerignore").read_text().split())
    assert {".git", ".ci", "tests", ".venv", "var", "docker/.env"} <= ignored
    assert "docs" not in ignored  # the site renders docs/*.md


def test_only_the_reverse_proxy_publishes_a_port(compose):
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["image"].startswith("nginx:1.")  # pinned, not :latest
    assert services["web"]["environment"]["ARENA_TRUSTED_PROXIES"] == "${ARENA_TRUSTED_PROXIES:-1}"


def test_the_proxy_caps_bodies_and_replaces_forwarded_for():
    text = (DOCKER / "nginx.conf").read_text()
    assert "client_max_body_size 1100k;" in text
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in text  # never appended
    for timeout in ("client_body_timeout", "proxy_read_timeout", "proxy_connect_timeout"):
        assert timeout in text
    # Kept connections to gunicorn end before gunicorn's keep-alive (5 s) ends them.
    assert "keepalive_timeout 4s;" in text.split("upstream arena_web", 1)[1].split("}", 1)[0]


def test_the_proxy_configuration_is_valid_nginx(tmp_path):
    """``nginx -t`` on the file, with the compose network's upstream name resolved locally."""
    if not shutil.which("nginx"):
        reason = "nginx is not installed (make test installs nginx-light)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {reason}", pytrace=False)
        pytest.skip(reason)
    text = (DOCKER / "nginx.conf").read_text().replace("server web:8000;", "server 127.0.0.1:9;")
    text = text.replace("include /etc/nginx/mime.types;", "")
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    checked = subprocess.run(
        ["nginx", "-t", "-c", str(conf), "-p", str(tmp_path), "-g", "error_log stderr;"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_worker_serves_every_queue_control_then_playground_first(settings):
    """The compose worker names its queues (-Q) in the order the arena serves them: the
    tournaments' bookkeeping, then a playground run before a validation, a validation before
    ladder and tournament work; the control worker serves the first alone."""
    compose = yaml.safe_load((DOCKER / "compose.worker.yml").read_text())["services"]
    command = compose["worker"]["command"]
    queues = command[command.index("-Q") + 1].split(",")
    assert queues == [queue.name for queue in settings.CELERY_TASK_QUEUES]
    assert queues[:2] == ["control", "playground"]
    assert settings.CELERY_TASK_ROUTES["workers.tasks.play_playground_match"] == {
        "queue": "playground"
    }
    assert settings.CELERY_TASK_ROUTES["workers.tasks.start_due_tournaments"] == {
        "queue": "control"
    }
    control = yaml.safe_load((DOCKER / "compose.yml").read_text())["services"]["control"]
    assert control["command"][control["command"].index("-Q") + 1] == "control"
