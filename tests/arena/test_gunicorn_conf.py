"""arena/gunicorn_conf.py's heap freezing: once after loading the app, once after the
worker's first requests."""

from __future__ import annotations

import gc
import itertools

from arena import gunicorn_conf


def test_post_worker_init_collects_and_freezes(monkeypatch):
    calls = []
    monkeypatch.setattr(gc, "collect", lambda: calls.append("collect"))
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    gunicorn_conf.post_worker_init(object())
    assert calls == ["collect", "freeze"]


def test_post_request_freezes_once_after_the_first_requests(monkeypatch):
    frozen = []
    monkeypatch.setattr(gunicorn_conf, "_served", itertools.count(1))
    monkeypatch.setattr(gunicorn_conf, "_freeze_heap", lambda: frozen.append(True))
    for served in range(1, 3 * gunicorn_conf.FREEZE_AFTER_REQUESTS):
        gunicorn_conf.post_request(object(), None, {}, None)
        assert len(frozen) == (served >= gunicorn_conf.FREEZE_AFTER_REQUESTS)


def test_the_freeze_leaves_the_collector_working():
    gunicorn_conf._freeze_heap()
    try:
        assert gc.get_freeze_count() > 0
        assert gc.isenabled()
    finally:
        gc.unfreeze()
