from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_team_chat_readers'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='aborted',
            field=models.BooleanField(default=False),
        ),
    ]
