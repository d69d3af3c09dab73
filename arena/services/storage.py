"""The object store that holds uploaded bot files when ``ARENA_S3_BUCKET`` is set.

With it, hosts share nothing on disk: web stores an upload in the bucket, any worker host
reads it from there (``version_bytes`` checks its sha256). The file-system default needs
nothing here.
"""

from __future__ import annotations

from typing import Any

from django.core.files.storage import default_storage

__all__ = ["object_store_check", "object_store_ensure"]

_MISSING = {"404", "NoSuchBucket", "NotFound"}


def _bucket() -> tuple[Any, str, str | None] | None:
    """(boto3 client, bucket, region) of the default storage, or None when it is no bucket.
    The client is Any: boto3 ships no types."""
    # Imported here: only a deployment with a bucket pays for boto3's import.
    from storages.backends.s3 import S3Storage

    if not isinstance(default_storage, S3Storage) or not default_storage.bucket_name:
        return None
    return (
        default_storage.connection.meta.client,
        default_storage.bucket_name,
        getattr(default_storage, "region_name", None),
    )


def object_store_ensure() -> str | None:
    """Create the bucket if it does not exist yet (a fresh MinIO); its name, or None.

    Idempotent, so the set-up run on every start may call it. Another error (wrong
    credentials, no such endpoint) is raised as it is: set-up then fails and retries.
    """
    from botocore.exceptions import ClientError

    found = _bucket()
    if found is None:
        return None
    client, name, region = found
    try:
        client.head_bucket(Bucket=name)
    except ClientError as exc:
        if str(exc.response.get("Error", {}).get("Code")) not in _MISSING:
            raise
        extra = {}
        if region and region != "us-east-1":  # S3 refuses the default region named
            extra["CreateBucketConfiguration"] = {"LocationConstraint": region}
        client.create_bucket(Bucket=name, **extra)
    return name


def object_store_check() -> str | None:
    """None when the bucket answers (or there is none to check), else one line saying why."""
    found = _bucket()
    if found is None:
        return None
    client, name, _ = found
    try:
        client.head_bucket(Bucket=name)
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return f"cannot reach the object store bucket {name!r}: {reason}"
    return None
