"""Wrong passwords slow guessing down, and never lock the owner out (arena.http.logins).

Every case runs through both doors: the API's token endpoint and the site's log-in form, which
share one set of counts. Time is moved by ageing the recorded failures, so the waits are the
real ones (30 s doubling to 15 minutes) without a test that sleeps. The limits are the
production settings' (``deployed_limits``), not whatever the test settings switch off: the
per-account limit that locked owners out was off in the test settings of its day, so a test
of it under them proved nothing.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from arena.http.addresses import address_group
from arena.http.logins import wait_after

pytestmark = pytest.mark.django_db

RIGHT = "alice-pass-123"
DOORS = ["token", "form"]


@pytest.fixture(autouse=True)
def deployed_limits(settings):
    """Every rate and log-in limit as the production settings (``arena.settings``) have them:
    the test settings switch DRF's throttle rates off, and must not switch off what is
    tested here."""
    import arena.settings as deployed

    rates = deployed.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict(rates)}
    for name, value in vars(deployed).items():
        if name.startswith(("ARENA_LOGIN_", "AXES_")) or name == "ARENA_TRUSTED_PROXIES":
            setattr(settings, name, value)


def refusal_said(response) -> str:
    """A refused page's status and sentence, for a failing assertion's message."""
    text = " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
    sentence = re.search(r"Too many [^.]*\.|[^.]*available in [^.]*\.", text)
    return f"{response.status_code}: {sentence.group(0).strip() if sentence else text[:300]}"


def attempt(door: str, username: str, password: str, address: str, **extra: str) -> str:
    """``ok``, ``wrong`` or ``wait`` (with the answer's Retry-After checked), from a fresh client
    at ``address``: a browser with no session, or an API client."""
    client = Client(REMOTE_ADDR=address)
    if door == "token":
        response = client.post(
            "/api/auth/token/",
            {"username": username, "password": password},
            content_type="application/json",
            **extra,
        )
        if response.status_code == 200:
            assert response.json()["token"]
            return "ok"
        if response.status_code == 400:
            return "wrong"
        assert response.status_code == 429, response.content
        assert response.json()["code"] == "throttled"
        assert "Too many wrong passwords" in response.json()["detail"], response.content
    else:
        response = client.post(
            "/accounts/login/", {"username": username, "password": password}, **extra
        )
        if response.status_code == 302:
            assert client.session.get("_auth_user_id")
            return "ok"
        assert "_auth_user_id" not in client.session
        if response.status_code == 200:
            assert "correct username and password" in response.content.decode()
            return "wrong"
        assert response.status_code == 429, response.content
        assert "Too many wrong passwords" in response.content.decode(), refusal_said(response)
    assert int(response["Retry-After"]) >= 1
    return "wait"


def later(seconds: float) -> None:
    """As if ``seconds`` had passed since every recorded failure."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(seconds=seconds))


def retry_after(door: str, address: str) -> int:
    client = Client(REMOTE_ADDR=address)
    if door == "token":
        body = {"username": "alice", "password": RIGHT}
        response = client.post("/api/auth/token/", body, content_type="application/json")
    else:
        response = client.post("/accounts/login/", {"username": "alice", "password": RIGHT})
    assert response.status_code == 429
    return int(response["Retry-After"])


@pytest.mark.parametrize("door", DOORS)
def test_ten_wrong_passwords_from_anywhere_do_not_lock_the_owner_out(door, owner):
    """The defect: ten wrong passwords for an account from any addresses, and its owner's
    right password from a fresh address got 429 "Expected available in 3593 seconds"."""
    wrong = [attempt(door, "alice", f"guess{n}", f"198.51.100.{n}") for n in range(10)]
    assert wrong == ["wrong"] * 10
    assert attempt(door, "alice", RIGHT, "203.0.113.7") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_ten_wrong_passwords_from_one_address_do_not_lock_the_owner_out(door, owner):
    results = [attempt(door, "alice", f"guess{n}", "198.51.100.1") for n in range(10)]
    assert results == ["wrong"] * 5 + ["wait"] * 5
    assert attempt(door, "alice", RIGHT, "203.0.113.7") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_an_address_that_keeps_failing_on_an_account_waits_longer_each_time(door, owner):
    address = "198.51.100.1"
    assert [attempt(door, "alice", f"g{n}", address) for n in range(5)] == ["wrong"] * 5
    # Its next try waits, even with the right password: the password is not even checked.
    assert attempt(door, "alice", RIGHT, address) == "wait"
    assert 25 <= retry_after(door, address) <= 30
    later(31)
    assert attempt(door, "alice", "g5", address) == "wrong"
    assert attempt(door, "alice", RIGHT, address) == "wait"
    assert 55 <= retry_after(door, address) <= 60  # doubled
    for _ in range(10):
        later(901)
        assert attempt(door, "alice", "again", address) == "wrong"
    assert 895 <= retry_after(door, address) <= 900  # capped at 15 minutes
    later(901)
    assert attempt(door, "alice", RIGHT, address) == "ok"  # waiting always gives a real try
    assert attempt(door, "alice", "typo", address) == "wrong"  # and the right one forgave


@pytest.mark.parametrize("door", DOORS)
def test_guessing_one_account_from_many_addresses_is_slowed(door, owner):
    # Four addresses, three wrong passwords each: the account's ten free failures are spent,
    # and each address has failed there often enough (ARENA_LOGIN_SHARED_AFTER) to be held.
    guessers = [f"198.51.100.{n}" for n in range(4)]
    tries = [attempt(door, "alice", f"g{n}", a) for a in guessers for n in range(3)]
    assert tries == ["wrong"] * 12
    # Every one of them now waits, though none reached its own five free tries.
    assert [attempt(door, "alice", "g", a) for a in guessers] == ["wait"] * 4
    assert 115 <= retry_after(door, guessers[0]) <= 120  # 12 failures: 30 s doubled twice
    # A fresh address gets three real tries, then waits: longer, as the account's count grows.
    assert [attempt(door, "alice", f"h{n}", "198.51.100.9") for n in range(4)] == [
        *["wrong"] * 3,
        "wait",
    ]
    assert 895 <= retry_after(door, "198.51.100.9") <= 900  # 15 failures: the 15-minute cap
    # The wait grew with the count for the first four as well (120 s has become 900 s) ...
    later(121)
    assert 775 <= retry_after(door, guessers[0]) <= 780
    # ... and each runs from the address's own latest failure: when it is over, one try,
    # then the longest wait again, whatever the other addresses do.
    later(780)
    assert attempt(door, "alice", "g3", guessers[0]) == "wrong"
    assert attempt(door, "alice", "g4", guessers[0]) == "wait"
    assert 895 <= retry_after(door, guessers[0]) <= 900
    assert attempt(door, "alice", "g5", guessers[1]) == "wrong"
    # All the while the owner, from an address that has not failed, logs in at once.
    assert attempt(door, "alice", RIGHT, "203.0.113.7") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_an_owner_who_mistypes_while_the_account_is_attacked_still_logs_in(door, owner):
    """The defect: once an account had ten failures from other addresses, one typo from the
    owner's fresh address held that address with the guessers (Retry-After 900)."""
    assert [attempt(door, "alice", f"g{n}", f"198.51.100.{n}") for n in range(10)] == ["wrong"] * 10
    assert attempt(door, "alice", "alice-pass-12", "203.0.113.7") == "wrong"  # a typo
    assert attempt(door, "alice", RIGHT, "203.0.113.7") == "ok"
    # Two typos from another fresh address are forgiven as well.
    assert attempt(door, "alice", "alice-pass", "203.0.113.8") == "wrong"
    assert attempt(door, "alice", "alice-pass-1234", "203.0.113.8") == "wrong"
    assert attempt(door, "alice", RIGHT, "203.0.113.8") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_guessers_cannot_stretch_the_wait_of_an_owner_who_mistyped_often(door, owner):
    """The defect: a held address's wait was counted from the account's latest failure, so a
    guesser adding a fresh address every quarter of an hour kept the owner out for good."""
    for n in range(10):
        attempt(door, "alice", f"g{n}", f"198.51.100.{n}")
    owner_address = "203.0.113.7"
    assert [attempt(door, "alice", f"typo{n}", owner_address) for n in range(3)] == ["wrong"] * 3
    assert attempt(door, "alice", RIGHT, owner_address) == "wait"  # held: 13 failures
    assert 235 <= retry_after(door, owner_address) <= 240
    # The guessing goes on from fresh addresses, well after the owner's last typo.
    later(600)
    assert [attempt(door, "alice", f"h{n}", f"198.51.100.{50 + n}") for n in range(5)] == [
        "wrong"
    ] * 5
    later(301)
    # The count grew (the wait with it, to the 15-minute cap), but the wait runs from the
    # owner's own last typo, 901 s ago, not from the guessers' latest failure, 301 s ago.
    assert attempt(door, "alice", RIGHT, owner_address) == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_one_address_trying_many_accounts_is_slowed(door, owner, other_user):
    results = [attempt(door, f"user{n}", "pw", "198.51.100.1") for n in range(30)]
    assert results == ["wrong"] * 30
    assert attempt(door, "bob", "bob-pass-123", "198.51.100.1") == "wait"
    assert attempt(door, "bob", "bob-pass-123", "198.51.100.2") == "ok"
    assert attempt(door, "alice", RIGHT, "203.0.113.7") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_a_right_password_forgives_that_addresss_failures(door, owner):
    assert [attempt(door, "alice", f"g{n}", "198.51.100.1") for n in range(4)] == ["wrong"] * 4
    assert attempt(door, "alice", RIGHT, "198.51.100.1") == "ok"
    assert [attempt(door, "alice", f"t{n}", "198.51.100.1") for n in range(5)] == ["wrong"] * 5
    assert attempt(door, "alice", RIGHT, "198.51.100.1") == "wait"


@pytest.mark.parametrize("door", DOORS)
def test_refused_attempts_are_not_counted(door, owner):
    for n in range(5):
        attempt(door, "alice", f"g{n}", "198.51.100.1")
    assert [attempt(door, "alice", "g", "198.51.100.1") for _ in range(20)] == ["wait"] * 20
    later(31)  # the first wait, not stretched by the twenty refused attempts
    assert attempt(door, "alice", RIGHT, "198.51.100.1") == "ok"


def test_the_token_endpoint_and_the_form_share_one_count(owner):
    for n in range(3):
        assert attempt("form", "alice", f"g{n}", "198.51.100.1") == "wrong"
    for n in range(2):
        assert attempt("token", "alice", f"t{n}", "198.51.100.1") == "wrong"
    assert attempt("form", "alice", RIGHT, "198.51.100.1") == "wait"
    assert attempt("token", "alice", RIGHT, "198.51.100.1") == "wait"


@pytest.mark.parametrize("door", DOORS)
def test_an_account_name_counts_whatever_its_case_or_spaces(door, owner):
    for n, name in enumerate(["alice", "ALICE", " Alice", "aLiCe ", "alice"]):
        assert attempt(door, name, f"g{n}", "198.51.100.1") == "wrong"
    assert attempt(door, "alice", RIGHT, "198.51.100.1") == "wait"


@pytest.mark.parametrize("door", DOORS)
def test_a_forged_forwarded_for_gets_no_fresh_tries(door, owner):
    results = [
        attempt(door, "alice", f"g{n}", "198.51.100.1", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        for n in range(7)
    ]
    assert results == ["wrong"] * 5 + ["wait"] * 2
    assert AccessAttempt.objects.get().ip_address == "198.51.100.1"


@pytest.mark.parametrize("door", DOORS)
def test_behind_a_trusted_proxy_the_address_it_saw_is_the_client(door, owner, settings):
    settings.ARENA_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"

    def via_proxy(password: str, forwarded: str) -> str:
        return attempt(door, "alice", password, proxy, HTTP_X_FORWARDED_FOR=forwarded)

    # The client's own claim (first entry) is ignored; the proxy's entry (last) counts.
    assert [via_proxy(f"g{n}", f"10.9.9.{n}, 198.51.100.7") for n in range(6)] == [
        *["wrong"] * 5,
        "wait",
    ]
    assert via_proxy(RIGHT, "198.51.100.8") == "ok"
    # A value no proxy writes is not an address: the connection is all there is.
    assert via_proxy("g", "not-an-address") == "wrong"
    assert AccessAttempt.objects.filter(ip_address=proxy).exists()


# --- IPv6: a host owns a whole /64, so a /64 is one address here ----------------------------

HOST_64 = "2001:db8:5:6"  # one host's /64: every address in it is the same client


@pytest.mark.parametrize("door", DOORS)
def test_a_fresh_address_from_the_same_ipv6_64_gets_no_fresh_tries(door, owner):
    """The defect: each of a /64's 2**64 addresses counted as a client of its own, so one host
    guessed on an account without ever waiting by moving to its next address."""
    results = [attempt(door, "alice", f"g{n}", f"{HOST_64}::{n + 1:x}") for n in range(8)]
    assert results == ["wrong"] * 5 + ["wait"] * 3
    assert attempt(door, "alice", RIGHT, f"{HOST_64}:abcd:ef01:2345:6789") == "wait"
    # Recorded under the /64's first address, one row however many addresses it used.
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == [f"{HOST_64}::"]
    # The owner at another /64 (even next door) logs in at once.
    assert attempt(door, "alice", RIGHT, "2001:db8:5:7::1") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_one_ipv6_64_trying_many_accounts_is_slowed(door, owner, other_user):
    results = [attempt(door, f"user{n}", "pw", f"{HOST_64}::{n + 1:x}") for n in range(30)]
    assert results == ["wrong"] * 30
    assert attempt(door, "bob", "bob-pass-123", f"{HOST_64}::ffff") == "wait"
    assert attempt(door, "bob", "bob-pass-123", "2001:db8:5:7::1") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_guessing_from_many_ipv6_64s_is_slowed_like_many_ipv4_addresses(door, owner):
    # Four /64s (a /62), three wrong passwords each, from a fresh address every time.
    tries = [
        attempt(door, "alice", f"g{n}", f"2001:db8:5:{net}::{n + 1}")
        for net in range(4)
        for n in range(3)
    ]
    assert tries == ["wrong"] * 12
    assert [attempt(door, "alice", "g", f"2001:db8:5:{net}::99") for net in range(4)] == [
        "wait"
    ] * 4
    assert attempt(door, "alice", RIGHT, "2001:db8:ffff::1") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_an_ipv4_address_written_as_ipv6_is_the_ipv4_address(door, owner):
    for n in range(3):
        assert attempt(door, "alice", f"g{n}", "198.51.100.1") == "wrong"
    for n in range(2):
        assert attempt(door, "alice", f"h{n}", "::ffff:198.51.100.1") == "wrong"
    assert attempt(door, "alice", RIGHT, "198.51.100.1") == "wait"
    assert attempt(door, "alice", RIGHT, "::ffff:198.51.100.2") == "ok"


@pytest.mark.parametrize("door", DOORS)
def test_behind_a_trusted_proxy_an_ipv6_client_is_grouped_too(door, owner, settings):
    settings.ARENA_TRUSTED_PROXIES = 1
    results = [
        attempt(door, "alice", f"g{n}", "10.0.0.2", HTTP_X_FORWARDED_FOR=f"{HOST_64}::{n + 1}")
        for n in range(6)
    ]
    assert results == ["wrong"] * 5 + ["wait"]
    assert attempt(door, "alice", RIGHT, "10.0.0.2", HTTP_X_FORWARDED_FOR="2001:db8:9::1") == "ok"


def test_the_ipv6_prefix_is_a_setting(owner, settings):
    # A provider that hands each customer a /56: count the /56 as one client.
    settings.ARENA_LOGIN_IPV6_PREFIX = 56
    results = [attempt("token", "alice", f"g{n}", f"2001:db8:5:{n}::1") for n in range(6)]
    assert results == ["wrong"] * 5 + ["wait"]
    assert attempt("token", "alice", RIGHT, "2001:db8:5:100::1") == "ok"  # another /56
    # /128: every IPv6 address on its own, as before.
    settings.ARENA_LOGIN_IPV6_PREFIX = 128
    assert attempt("token", "alice", RIGHT, "2001:db8:5:1::2") == "ok"


def test_a_right_password_forgives_its_64s_failures(owner):
    for n in range(4):
        assert attempt("form", "alice", f"g{n}", f"{HOST_64}::{n + 1}") == "wrong"
    assert attempt("form", "alice", RIGHT, f"{HOST_64}::77") == "ok"
    assert not AccessAttempt.objects.exists()


ipv6 = st.ip_addresses(v=6)


@given(ipv6, st.integers(0, 2**64 - 1), st.integers(32, 128))
def test_addresses_of_one_network_are_one_group_and_the_group_is_in_it(address, host, prefix):
    import ipaddress

    network = ipaddress.IPv6Network((address, prefix), strict=False)
    neighbour = network.network_address + (host % network.num_addresses)
    group = address_group(str(address), prefix)
    if address.ipv4_mapped is None and neighbour.ipv4_mapped is None:
        assert address_group(str(neighbour), prefix) == group
        assert ipaddress.IPv6Address(group) in network
        assert ipaddress.IPv6Address(group) == network.network_address
    if prefix == 128 and address.ipv4_mapped is None:
        assert group == str(address)


@given(st.ip_addresses(v=4))
def test_ipv4_addresses_are_their_own_group(address):
    assert address_group(str(address), 64) == str(address)
    assert address_group(f"::ffff:{address}", 64) == str(address)


def test_the_admin_log_in_is_held_to_the_same_limits(owner):
    owner.is_staff = True
    owner.save()
    for n in range(5):
        attempt("form", "alice", f"g{n}", "198.51.100.1")
    client = Client(REMOTE_ADDR="198.51.100.1")
    response = client.post("/admin/login/", {"username": "alice", "password": RIGHT})
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert int(response["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session
    fresh = Client(REMOTE_ADDR="203.0.113.7")
    answer = fresh.post("/admin/login/?next=/admin/", {"username": "alice", "password": RIGHT})
    assert answer.status_code == 302


def test_the_form_keeps_the_name_and_says_how_long_to_wait(owner):
    for n in range(5):
        attempt("form", "alice", f"g{n}", "198.51.100.1")
    page = Client(REMOTE_ADDR="198.51.100.1").post(
        "/accounts/login/", {"username": "alice", "password": RIGHT}
    )
    text = page.content.decode()
    assert page.status_code == 429
    assert "try again in 30 seconds" in text
    assert 'value="alice"' in text
    assert "correct username and password" not in text


@given(st.integers(0, 10_000), st.integers(1, 50))
def test_waits_grow_with_every_failure_and_stop_at_the_cap(failures, threshold):
    wait = wait_after(failures, threshold)
    if failures < threshold:
        assert wait == 0
    else:
        assert 30 <= wait <= 900
        assert wait_after(failures + 1, threshold) >= wait
        assert wait_after(failures + 1, threshold) in (900, 2 * wait)
