"""Which names a player may have: the one place that decides, for the sign-up form, the API, the profile
and the data migration alike (docs/site.md "Names").

A username is a handle typed at log-in and shown in links: 2-30 ASCII letters, digits, `_`, `-` and `.`,
beginning and ending with a letter or a digit. A display name is what opponents see: 1-40 printable
characters of any script, single spaces between words; no control, format (bidi overrides such as U+202E),
private-use or unassigned characters, no `<` or `>`. Both are unique ignoring case across usernames and
display names, so no one can show a name that reads as another player's; nor one that only looks like
another player's (Unicode TR39 confusable skeletons, from the confusables data confusable_homoglyphs ships).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources

USERNAME_MIN, USERNAME_MAX = 2, 30
DISPLAY_NAME_MAX = 40
USERNAME_PATTERN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?")
USERNAME_RULE = (
    f"{USERNAME_MIN}-{USERNAME_MAX} characters: letters a-z, digits, '_', '-' and '.', "
    "beginning and ending with a letter or a digit"
)
DISPLAY_NAME_RULE = (
    f"at most {DISPLAY_NAME_MAX} characters: letters, digits, punctuation and symbols of any script with single "
    "spaces between words; no control or formatting characters, no < or >"
)
# Unicode general categories a display name may not contain: controls, formats (bidi overrides, zero-width
# joiners), surrogates, private use, unassigned; line and paragraph separators.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class NameError_(ValueError):  # noqa: N801 - "NameError" is a builtin
    """A name breaks the rules; the message says which."""


def name_key(name: str) -> str:
    """What two names must not share: their case-folded NFKC form."""
    return unicodedata.normalize("NFKC", name).casefold()


@cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables.txt -> the one character that stands for all it is confusable
    with. The data is the copy confusable_homoglyphs ships (confusables.json: every line of confusables.txt as a
    pair, stored both ways, so the file no longer says which side was the prototype); a character's stand-in is
    the smallest code point of the characters the pairs link it to, so ASCII where there is one. Multi-character
    sides (m -> "rn") are left out: a name with one is compared by its single characters."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for char, entries in raw.items():
        if len(char) != 1:
            continue
        for entry in entries:
            other = entry["c"]
            if len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in list(parent) if root(ch) != ch}


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton of `text`: NFD, each character replaced by its confusables.txt stand-in, NFD
    again. "аlice" (Cyrillic а) and "alice", "рор" (all Cyrillic) and "pop", "Ian" and "lan" share one."""
    prototypes = _prototypes()
    return unicodedata.normalize(
        "NFD", "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    )


@lru_cache(maxsize=65536)
def lookalike_keys(name: str) -> frozenset[str]:
    """What a name must not share with another player's (docs/site.md "Names"): the skeleton of the name as
    written (capital I looks like small l) and of its NFKC case fold (ALICE, Аlice and alice are one name).
    Two names look alike when their keys meet."""
    return frozenset({skeleton(unicodedata.normalize("NFKC", name)), skeleton(name_key(name))})


def looks_alike(one: str, other: str) -> bool:
    return not lookalike_keys(one).isdisjoint(lookalike_keys(other))


def clean_username(raw: str) -> str:
    """The username as stored (surrounding spaces trimmed), or NameError_ with the rule."""
    name = raw.strip()
    if not (USERNAME_MIN <= len(name) <= USERNAME_MAX) or not USERNAME_PATTERN.fullmatch(name):
        raise NameError_(f"username: {username_problem(name)}")
    return name


def username_problem(name: str) -> str:
    """What is wrong with a username that breaks the rule, in a player's words: "'<' is not allowed; use
    letters a-z, digits, '_', '-' and '.'"."""
    refused = list(dict.fromkeys(ch for ch in name if not re.fullmatch(r"[A-Za-z0-9_.-]", ch)))
    if refused:
        shown = [_character(ch) for ch in refused[:3]]
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        verb = "is" if len(refused) == 1 else "are"
        return f"{listed} {verb} not allowed; use letters a-z, digits, '_', '-' and '.'"
    if len(name) < USERNAME_MIN:
        return f"too short: use at least {USERNAME_MIN} characters"
    if len(name) > USERNAME_MAX:
        return f"too long ({len(name)} characters): use at most {USERNAME_MAX}"
    return "begin and end with a letter or a digit ('_', '-' and '.' only in between)"


_INVISIBLE_CATEGORIES = _REFUSED_CATEGORIES | {"Zs"}


def _character(ch: str) -> str:
    """A refused character as a player can tell it apart: ASCII as itself ("'<'", "a space"); any other by its
    Unicode name and code point too, since it may look like an allowed letter ("'а' (CYRILLIC SMALL LETTER A,
    U+0430, which looks like 'a')") or not show at all ("an invisible character (ZERO WIDTH SPACE, U+200B)")."""
    if ch == " ":
        return "a space"
    if ch.isascii() and ch.isprintable():
        return f"'{ch}'"
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    described = f"{name}, {code}" if name else code
    category = unicodedata.category(ch)
    if category in _INVISIBLE_CATEGORIES:
        return f"an invisible character ({described})"
    if category.startswith("M"):
        return f"a combining mark ({described})"
    like = _prototypes().get(ch, "")
    looks = f", which looks like '{like}'" if like.isascii() and like.isalnum() else ""
    return f"'{ch}' ({described}{looks})"


def clean_display_name(raw: str) -> str:
    """The display name as stored (NFC, trimmed; "" for none), or NameError_ with the rule."""
    name = unicodedata.normalize("NFC", raw).strip()
    if len(name) > DISPLAY_NAME_MAX or "  " in name or "<" in name or ">" in name:
        raise NameError_(f"display_name: {DISPLAY_NAME_RULE}")
    for ch in name:
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES or (category == "Zs" and ch != " "):
            raise NameError_(f"display_name: {DISPLAY_NAME_RULE}")
    return name


def normalised_username(raw: str, *, fallback: str) -> str:
    """The nearest allowed username to `raw` (for renaming old rows): accents dropped, other characters
    replaced by '-', cut to length; `fallback` when nothing is left."""
    ascii_form = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", ascii_form)
    name = re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", name)[:USERNAME_MAX]
    name = re.sub(r"[^A-Za-z0-9]+$", "", name)
    return name if len(name) >= USERNAME_MIN else fallback


def normalised_display_name(raw: str) -> str:
    """The nearest allowed display name to `raw`: refused characters dropped, spaces collapsed, cut to length."""
    name = unicodedata.normalize("NFC", raw)
    kept = []
    for ch in name:
        category = unicodedata.category(ch)
        if ch in "<>" or category in _REFUSED_CATEGORIES - {"Cc"}:
            continue
        kept.append(" " if category in ("Zs", "Cc") else ch)
    return " ".join("".join(kept).split())[:DISPLAY_NAME_MAX].strip()
