"""Issue 33 item 4: the turn_resolved events already stored for classic games lose what only a robot's owner
may see in their `actions` (the flywheel's instruction, the circuit breaker's threshold). The turns' own
records (Turn.actions) keep everything: the replay needs them, and they are never served as they are."""

from django.db import migrations


def scrub(apps, schema_editor):
    from engine.rulesets.classic import public_action

    GameEvent = apps.get_model("games", "GameEvent")
    events = GameEvent.objects.filter(kind="turn_resolved", game__ruleset="classic")
    for event in events.iterator():
        actions = (event.data or {}).get("actions")
        if not actions:
            continue
        public = {bot: shown for bot, shown in ((bot, public_action(a)) for bot, a in actions.items()) if shown}
        if public != actions:
            event.data = {**event.data, "actions": public}
            event.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [("games", "0012_game_kinds")]
    operations = [migrations.RunPython(scrub, migrations.RunPython.noop)]
