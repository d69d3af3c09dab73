"""The client's address, the one thing every limit keyed on a client agrees on.

With ``ARENA_TRUSTED_PROXIES=0`` (the default) it is the connection's own address
(``REMOTE_ADDR``) and ``X-Forwarded-For`` is ignored: a client cannot name itself a fresh
address per request. Behind N proxies of ours, each adding the address it saw to
``X-Forwarded-For``, it is the entry the outermost of them added (the N-th from the right);
whatever the client wrote before it is not believed. See docs/deploy.md, "Client addresses".

Used by the upload throttle (DRF's ``get_ident``) and by the log-in limits (django-axes'
``AXES_CLIENT_IP_CALLABLE``, through :func:`address_group`), so both see the same client.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings

__all__ = ["address_group", "client_address"]


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


def address_group(address: str, ipv6_prefix: int) -> str:
    """The address a limit counts ``address`` under: an IPv4 address as it is; an IPv6 address
    as the first address of its ``/ipv6_prefix`` network, so a host handed a /64 (the usual
    end-site subnet: 2**64 addresses) cannot take a fresh address per try; an IPv4 address
    written as IPv6 (``::ffff:198.51.100.7``) as the IPv4 address it is. Anything else (no
    address at all) as it came."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, ipv6_prefix), strict=False).network_address)
