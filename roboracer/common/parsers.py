"""DRF's JSON parser, with a body nested too deeply for Python's decoder answered like any other bad JSON.

`json.loads("[" * 100000)` raises RecursionError, which is not a ValueError: DRF's parser let it through as
a 500. Here it is a 400 "JSON parse error", like a missing bracket.
"""

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
