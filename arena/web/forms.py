"""The pages' forms. They check shape only; the services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm

from arena.models import Bot
from arena.models.bots import BOT_NAME
from arena.models.games import game_choices
from arena.web.fields import choice_field

__all__ = ["BotCreateForm", "BotDescriptionForm", "ChallengeForm", "SignupForm", "UploadForm"]

_DESCRIPTION_MAX = Bot._meta.get_field("description").max_length
_ACCEPT = ".py,.zip,text/x-python,application/zip"


def _file_field(*, required: bool) -> forms.FileField:
    limit_kib = settings.ARENA_UPLOAD_MAX_BYTES // 1024
    return forms.FileField(
        label="Bot file",
        required=required,
        help_text=f"One .py file, or a .zip with bot.py at its root; at most {limit_kib:,} KiB.",
        widget=forms.ClearableFileInput(attrs={"accept": _ACCEPT}),
    )


class SignupForm(UserCreationForm):
    """Django's own sign-up form (username and a password typed twice, with its checks)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class BotCreateForm(forms.Form):
    name = forms.CharField(
        max_length=48,
        validators=[BOT_NAME],
        help_text="1-48 letters, digits, '_', '-' or '.', starting with a letter or digit.",
    )
    game = forms.ChoiceField(
        choices=(),  # set per form from the registry: see __init__
        help_text="The game it plays; a bot plays one game. Each game has its own ladder.",
    )
    description = forms.CharField(
        required=False,
        max_length=_DESCRIPTION_MAX,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Optional: how it plays. Shown on its public page.",
    )
    file = _file_field(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = game_choices()
        field = choice_field(self, "game")
        if len(choices) == 1:
            field.choices, field.initial = choices, choices[0][0]
        else:
            # No game is preselected: the author chooses (a bot cannot change game later).
            field.choices = [("", "Choose a game…"), *choices]


class BotDescriptionForm(forms.Form):
    description = forms.CharField(
        required=False, max_length=_DESCRIPTION_MAX, widget=forms.Textarea(attrs={"rows": 5})
    )


class UploadForm(forms.Form):
    file = _file_field(required=True)


class _TaggedOptions:
    """Options carrying ``data-*`` attributes (``option_data``, by option value): a mixin for
    the choice widgets below, so the select and the checkboxes tag their options alike."""

    option_data: dict[str, dict[str, str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.option_data = {}

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(  # type: ignore[misc]
            name, value, *args, **kwargs
        )
        option["attrs"].update(self.option_data.get(str(value), {}))
        return option


class _TaggedSelect(_TaggedOptions, forms.Select):
    """A select whose options carry ``data-*`` attributes (by option value)."""


class _TaggedCheckboxes(_TaggedOptions, forms.CheckboxSelectMultiple):
    """Checkboxes (one click each, no ctrl-click) whose inputs carry ``data-*`` attributes."""


class ChallengeForm(forms.Form):
    """A challenge: one of the user's versions, the rivals, how many matches.

    The choices are offered by the view for one game (``challenge_choices``): the user's valid
    versions of it, and its ladder's bots and the user's own versions of it; the service
    decides what may meet what.
    """

    game = forms.CharField(widget=forms.HiddenInput, required=False)
    version = forms.TypedChoiceField(
        coerce=int, label="Your version", choices=(), widget=_TaggedSelect
    )
    rivals = forms.TypedMultipleChoiceField(
        coerce=int,
        choices=(),
        widget=_TaggedCheckboxes,
        help_text="Bots on this game's ladder (their current version) and your own other "
        "versions; for a game of more seats, tick several (empty seats are filled with the "
        "game's random bot). Your chosen version is not offered against itself.",
    )
    # Not "matches": a form control of that name would shadow the form element's own
    # Element.matches() in the browser (and break any script that calls it).
    match_count = forms.IntegerField(
        label="Matches",
        min_value=1,
        max_value=100,
        initial=20,
        help_text="1 to 100 unrated matches (whole duplicate sets where the game deals them).",
    )

    def __init__(self, *args: Any, choices: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        version, rivals = choice_field(self, "version"), choice_field(self, "rivals")
        version.choices = [(c.version_id, c.label) for c in choices.versions]
        rivals.choices = [(c.version_id, c.label) for c in choices.rivals]
        version.widget.option_data = {
            str(c.version_id): {"data-game": c.game, "data-bot": str(c.bot_id)}
            for c in choices.versions
        }
        # The chosen version is not offered against itself, with or without the page's
        # script: its box comes disabled (never ticked, never sent) and hidden, and the
        # script moves that to whichever version is chosen next.
        chosen = str(self.data.get("version") if self.is_bound else self.initial.get("version"))
        itself = {"disabled": True, "data-itself": "true"}
        rivals.widget.option_data = {
            str(c.version_id): {
                "data-game": c.game,
                "data-bot": str(c.bot_id),
                "data-current": "true" if c.current else "false",
                "data-label": c.label.casefold(),
                **(itself if str(c.version_id) == chosen else {}),
            }
            for c in choices.rivals
        }
        self.fields["game"].initial = choices.game

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("version") is not None and data.get("version") in (data.get("rivals") or []):
            self.add_error("rivals", "Your version cannot be its own rival: untick it.")
        return data
