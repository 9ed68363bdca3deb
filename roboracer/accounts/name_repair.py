"""Bringing names stored before the rules of roboracer/accounts/names.py into line with them: used by the
data migration 0003 (historical models) and by `manage.py check_names` (report, or `--fix`).

Deterministic: accounts in id order; the oldest account keeps a name others share ignoring case, later ones
get the nearest allowed name with `-<n>` appended (the smallest n >= 2 that is free). A display name that
breaks the character rules is cleaned; one that is then empty, or equal ignoring case to another player's
username or to an older player's display name, is cleared (the player shows their username).
"""

from __future__ import annotations

from dataclasses import dataclass

from roboracer.accounts.names import (
    USERNAME_MAX,
    NameError_,
    clean_display_name,
    clean_username,
    lookalike_keys,
    name_key,
    normalised_display_name,
    normalised_username,
)


@dataclass(frozen=True)
class Rename:
    user_id: int
    field: str  # "username" or "display_name"
    old: str
    new: str

    def __str__(self) -> str:
        return f"user {self.user_id}: {self.field} {self.old!r} -> {self.new!r}"


def _valid(clean, name: str) -> bool:
    try:
        return clean(name) == name
    except NameError_:
        return False


def plan(users: list[tuple[int, str]], display_names: dict[int, str]) -> list[Rename]:
    """The renames that make `users` ((id, username) pairs) and `display_names` (user id -> display name)
    follow the rules; empty when they already do."""
    users = sorted(users)
    renames: list[Rename] = []
    taken: set[str] = set()
    final: dict[int, str] = {}
    for user_id, username in users:  # first, every valid name keeps its oldest owner
        if _valid(clean_username, username) and name_key(username) not in taken:
            taken.add(name_key(username))
            final[user_id] = username
    for user_id, username in users:
        if user_id in final:
            continue
        base = normalised_username(username, fallback=f"player-{user_id}")
        candidate, n = base, 1
        while name_key(candidate) in taken:
            n += 1
            suffix = f"-{n}"
            candidate = base[: USERNAME_MAX - len(suffix)].rstrip("_.-") + suffix
        taken.add(name_key(candidate))
        final[user_id] = candidate
        renames.append(Rename(user_id, "username", username, candidate))

    owner_of_username = {name_key(name): user_id for user_id, name in final.items()}
    shown: set[str] = set()
    for user_id, _ in users:
        old = display_names.get(user_id, "")
        if not old:
            continue
        new = old if _valid(clean_display_name, old) else normalised_display_name(old)
        key = name_key(new)
        if new and (owner_of_username.get(key, user_id) != user_id or key in shown):
            new = ""
        if new:
            shown.add(key)
        if new != old:
            renames.append(Rename(user_id, "display_name", old, new))
    return renames


def repair(user_model, profile_model, *, apply: bool) -> list[Rename]:
    """The renames the stored rows need (see plan); saved when `apply`. Works with historical models."""
    users = list(user_model.objects.values_list("id", "username"))
    display_names = dict(profile_model.objects.exclude(display_name="").values_list("user_id", "display_name"))
    renames = plan(users, display_names)
    if apply:
        # Clear every display name that changes first: a new one may equal an old one of another row.
        changed = [r for r in renames if r.field == "display_name"]
        profile_model.objects.filter(user_id__in=[r.user_id for r in changed]).update(
            display_name="", display_name_key=None
        )
        for rename in changed:
            if rename.new:
                profile_model.objects.filter(user_id=rename.user_id).update(
                    display_name=rename.new, display_name_key=name_key(rename.new)
                )
        # Usernames: move every renamed row to a temporary unique name first, for the same reason.
        moved = [r for r in renames if r.field == "username"]
        for rename in moved:
            user_model.objects.filter(pk=rename.user_id).update(username=f"~renaming-{rename.user_id}")
        for rename in moved:
            user_model.objects.filter(pk=rename.user_id).update(username=rename.new)
        # Every remaining display name gets its key (rows from before the key existed).
        for user_id, name in profile_model.objects.exclude(display_name="").values_list("user_id", "display_name"):
            profile_model.objects.filter(user_id=user_id).update(display_name_key=name_key(name))
    return renames


@dataclass(frozen=True)
class Lookalike:
    """Two accounts' names that look alike (names.lookalike_keys) but are not equal ignoring case."""

    first: tuple[int, str, str]  # (user id, "username" or "display_name", name), the older account's
    second: tuple[int, str, str]

    def __str__(self) -> str:
        (id1, field1, name1), (id2, field2, name2) = self.first, self.second
        return f"user {id1} {field1} {name1!r} ~ user {id2} {field2} {name2!r}"


def lookalikes(users: list[tuple[int, str]], display_names: dict[int, str]) -> list[Lookalike]:
    """Pairs of different accounts whose usernames or display names look alike; reported, never renamed (a
    rename would take a name a player chose from them without telling them which one was first)."""
    names = [(user_id, "username", name) for user_id, name in sorted(users)]
    names += [(user_id, "display_name", name) for user_id, name in sorted(display_names.items()) if name]
    by_key: dict[str, list[tuple[int, str, str]]] = {}
    for entry in names:
        for key in lookalike_keys(entry[2]):
            by_key.setdefault(key, []).append(entry)
    found: set[Lookalike] = set()
    for entries in by_key.values():
        for i, one in enumerate(entries):
            for other in entries[i + 1:]:
                if one[0] != other[0]:
                    found.add(Lookalike(*sorted((one, other))))
    return sorted(found, key=lambda pair: (pair.first, pair.second))


def stored_lookalikes(user_model, profile_model) -> list[Lookalike]:
    users = list(user_model.objects.values_list("id", "username"))
    display_names = dict(profile_model.objects.exclude(display_name="").values_list("user_id", "display_name"))
    return lookalikes(users, display_names)
