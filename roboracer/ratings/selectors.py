"""Reads of ratings."""

from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, ordinal


def ratings_of(*, users) -> dict[int, float]:
    """{user id: ordinal} for these users (users or ids); a player never rated has the default ordinal."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: ordinal(mu, sigma) for pk, mu, sigma in Rating.objects.filter(user_id__in=ids).values_list(
        "user_id", "mu", "sigma")}
    default = ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    return {pk: found.get(pk, default) for pk in ids}
