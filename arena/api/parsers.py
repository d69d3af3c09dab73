"""The API's JSON parser: a body nested too deeply is a malformed request, not a crash."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as DRFJSONParser

__all__ = ["JSONParser"]


class JSONParser(DRFJSONParser):
    """DRF's parser, answering 400 ``parse_error`` for a body nested past Python's stack.

    ``json.loads`` raises ``RecursionError`` (not ``ValueError``) on a thousand nested
    brackets; DRF lets it through, so anyone, signed in or not, could turn a 40-byte-deep
    ``[[[[...`` into a 500 and a traceback in the log.
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.") from None
