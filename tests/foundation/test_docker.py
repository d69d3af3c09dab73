"""The Docker image and compose file: checked without a Docker engine (none runs here)."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((DOCKER / "compose.yml").read_text())


def test_compose_has_every_service_with_a_health_check(compose):
    services = compose["services"]
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert "healthcheck" in services[name], name


def test_compose_keeps_the_database_and_uploaded_bots_in_volumes(compose):
    assert {"pgdata", "bots"} <= set(compose["volumes"])
    assert "pgdata:/var/lib/postgresql/data" in compose["services"]["postgres"]["volumes"]
    for name in ("web", "worker", "beat"):
        assert any(v.startswith("bots:") for v in compose["services"][name]["volumes"])


def test_dockerfile_is_slim_installs_bubblewrap_and_drops_root():
    text = (DOCKER / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in text
    assert "bubblewrap" in text
    assert "USER arena" in text
    assert "gunicorn" in text


def _compose_command():
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_docker_compose_config_accepts_the_file():
    command = _compose_command()
    if command is None:
        if os.environ.get("CI") == "true" and shutil.which("docker"):
            pytest.fail("the docker client is here but no compose (make test installs it)")
        pytest.skip("no docker compose here")
    result = subprocess.run(
        [*command, "-f", str(DOCKER / "compose.yml"), "config", "--quiet"],
        capture_output=True,
        text=True,
        env={**os.environ, "SECRET_KEY": "for-config"},
    )
    assert result.returncode == 0, result.stderr


def test_only_the_reverse_proxy_publishes_a_port(compose):
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["image"].startswith("nginx:1.")  # pinned, not :latest
    assert services["web"]["environment"]["ARENA_TRUSTED_PROXIES"] == "1"


def test_the_proxy_caps_bodies_and_replaces_forwarded_for():
    text = (DOCKER / "nginx.conf").read_text()
    assert "client_max_body_size 1100k;" in text
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in text  # never appended
    for timeout in ("client_body_timeout", "proxy_read_timeout", "proxy_connect_timeout"):
        assert timeout in text


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
