"""The client's address, the one thing every limit keyed on a client agrees on.

With ``ARENA_TRUSTED_PROXIES=0`` (the default) it is the connection's own address
(``REMOTE_ADDR``) and ``X-Forwarded-For`` is ignored: a client cannot name itself a fresh
address per request. Behind N proxies of ours, each adding the address it saw to
``X-Forwarded-For``, it is the entry the outermost of them added (the N-th from the right);
whatever the client wrote before it is not believed. See docs/deploy.md, "Client addresses".

Used by the upload throttle (DRF's ``get_ident``) and by the log-in limits (django-axes'
``AXES_CLIENT_IP_CALLABLE``), so both see the same client.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings

__all__ = ["client_address"]


def client_address(request: Any) -> str:
    """The client's IP address (``REMOTE_ADDR`` if the forwarded one is not an address)."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or ""
    proxies = settings.ARENA_TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if not proxies or not forwarded:
        return remote
    entries = [entry.strip() for entry in forwarded.split(",")]
    claimed = entries[-min(proxies, len(entries))]
    try:
        return str(ipaddress.ip_address(claimed))
    except ValueError:
        return remote  # not what a proxy of ours writes: the connection is all we know
