"""Uploaded bot files in an object store (S3 API), so worker hosts share nothing on disk.

moto plays the S3 server in-process; the compose stack uses MinIO (tests/deploy).
"""

from __future__ import annotations

import hashlib

import boto3
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.services.bots import bot_version_upload
from arena.services.matches.playing import PlatformError, version_bytes
from arena.services.storage import object_store_check, object_store_ensure
from tests.arena.factories import BotFactory
from tests.arena.helpers import stored_files

moto = pytest.importorskip("moto")

SOURCE = b"def act(observation):\n    return {}\n"
BUCKET = "arena-bots"


@pytest.fixture
def s3(settings, monkeypatch):
    """Django's default storage is an S3 bucket on a mocked endpoint (no network)."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "test",
        "AWS_SECRET_ACCESS_KEY": "test",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with moto.mock_aws():
        settings.STORAGES = {
            **settings.STORAGES,
            "default": {
                "BACKEND": "storages.backends.s3.S3Storage",
                "OPTIONS": {"bucket_name": BUCKET, "region_name": "us-east-1"},
            },
        }
        yield boto3.client("s3", region_name="us-east-1")


def test_setup_creates_the_bucket_once_and_the_check_then_passes(s3):
    assert object_store_check() is not None  # no bucket yet: said in one line
    assert "arena-bots" in object_store_check()

    assert object_store_ensure() == BUCKET
    assert object_store_ensure() == BUCKET  # idempotent: every `up` runs set-up
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == [BUCKET]
    assert object_store_check() is None


def test_an_upload_goes_to_the_bucket_not_the_disk_and_a_worker_reads_it_back(
    s3, owner, media_root, monkeypatch
):
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: None)
    object_store_ensure()
    bot = BotFactory(owner=owner)

    version = bot_version_upload(bot=bot, user=owner, upload=SimpleUploadedFile("b.py", SOURCE))

    assert stored_files(media_root) == []  # nothing on the local disk
    key = f"bots/{bot.pk}/{version.sha256}.py"
    assert s3.get_object(Bucket=BUCKET, Key=key)["Body"].read() == SOURCE
    assert version_bytes(version) == SOURCE  # what a worker on another host does


def test_a_file_changed_in_the_bucket_is_a_platform_error_not_a_bot_to_run(
    s3, owner, media_root, monkeypatch
):
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: None)
    object_store_ensure()
    version = bot_version_upload(
        bot=BotFactory(owner=owner), user=owner, upload=SimpleUploadedFile("b.py", SOURCE)
    )
    s3.put_object(Bucket=BUCKET, Key=version.file.name, Body=b"import os\n")

    with pytest.raises(PlatformError, match="does not match its sha256"):
        version_bytes(version)
    assert hashlib.sha256(SOURCE).hexdigest() == version.sha256  # the record is unchanged


@pytest.mark.slow
def test_the_settings_choose_the_bucket_only_when_asked(tmp_path):
    from tests.foundation.test_config import manage

    show = "from django.conf import settings as s; print(s.STORAGES['default']['BACKEND'])"
    base = {"DEBUG": "1", "ARENA_DATA_DIR": str(tmp_path)}
    plain = manage("shell", "--no-imports", "-c", show, env=base)
    assert plain.stdout.strip() == "django.core.files.storage.FileSystemStorage", plain.stderr
    bucket = manage(
        "shell",
        "--no-imports",
        "-c",
        show,
        env={**base, "ARENA_S3_BUCKET": "b", "ARENA_S3_ENDPOINT_URL": "http://minio:9000"},
    )
    assert bucket.stdout.strip() == "storages.backends.s3.S3Storage", bucket.stderr
