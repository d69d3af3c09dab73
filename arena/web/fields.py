"""What the pages' forms share about their fields."""

from __future__ import annotations

from django import forms

__all__ = ["choice_field"]


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, declared a choice field: ``form.fields`` holds any Field,
    and a form setting its choices at run time needs the one that has them."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a choice field")
    return field
