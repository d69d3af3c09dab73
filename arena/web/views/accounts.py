"""Sign up and the API token page (log in and log out are Django's own views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache

from arena.http.requests import SignedInRequest
from arena.selectors.accounts import token_get
from arena.services.accounts import token_regenerate
from arena.web.forms import SignupForm

__all__ = ["signup", "token"]


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing up: ``next`` if it stays on this site, else home."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else "home"


@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log it in at once, so the next step can be the first bot."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Create your first bot below.")
        return redirect(_next_url(request))
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    return render(request, "arena/accounts/signup.html", {"form": form, "next": next_url})


@login_required
@never_cache
def token(request: SignedInRequest) -> HttpResponse:
    """Show the user's API token; POST creates it, or replaces it (the old one stops working)."""
    current = token_get(user=request.user)
    if request.method == "POST":
        token_regenerate(user=request.user)
        messages.success(
            request,
            "New token created; the old one no longer works." if current else "Token created.",
        )
        return redirect("token")
    return render(request, "arena/accounts/token.html", {"token": current})
