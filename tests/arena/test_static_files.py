"""Production static files: collected with their manifest by the documented start, and a
start without them stops with one line saying what to run (issue 21, finding 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test.utils import override_settings

from arena.checks import static_files_problem

MANIFEST_STORAGE = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}


@pytest.mark.slow
def test_a_production_start_without_collected_files_is_one_clear_line(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": MANIFEST_STORAGE}
    problem = static_files_problem()
    assert problem is not None
    assert "collectstatic --noinput" in problem and "staticfiles.json" in problem
    call_command("collectstatic", interactive=False, verbosity=0)
    assert static_files_problem() is None


@pytest.mark.slow
def test_the_arena_up_collection_writes_the_manifest_even_in_debug(settings, tmp_path):
    """make run collects with the manifest whatever DEBUG is, so DEBUG=0 later serves."""
    from arena.management.commands import arena_up

    settings.STATIC_ROOT = tmp_path / "static"
    settings.DEBUG = True
    with override_settings(STORAGES={**settings.STORAGES, "staticfiles": arena_up.MANIFEST}):
        call_command("collectstatic", interactive=False, verbosity=0)
    assert (Path(settings.STATIC_ROOT) / "staticfiles.json").is_file()


def test_the_deploy_check_names_the_fix_and_migrate_does_not_need_static_files(settings, tmp_path):
    """``check --deploy`` stops on missing static files; ``migrate`` (which a deployment may
    run before collecting) is not held up by them."""
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": MANIFEST_STORAGE}
    with pytest.raises(SystemCheckError, match=r"arena\.E001.*collectstatic --noinput"):
        call_command("check", deploy=True, fail_level="ERROR", verbosity=0)
    call_command("check", verbosity=0)  # the everyday checks pass without static files
