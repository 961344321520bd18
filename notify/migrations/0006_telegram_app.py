"""A Telegram link points at the telegram app's chat (and a person may link several); each
linked chat's person becomes a Telegram identity of their account (a private chat's id is its
person's Telegram user id)."""

from django.conf import settings
from django.db import migrations, models


def to_chats(apps, schema_editor):
    TelegramLink = apps.get_model("notify", "TelegramLink")
    Chat = apps.get_model("telegram", "Chat")
    Identity = apps.get_model("telegram", "Identity")
    for link in TelegramLink.objects.all():
        chat, _created = Chat.objects.get_or_create(
            chat_id=link.chat_id, defaults={"kind": "private"}
        )
        link.chat = chat
        link.save(update_fields=["chat"])
        if not Identity.objects.filter(user_id=link.user_id).exists():
            Identity.objects.get_or_create(
                telegram_id=link.chat_id, defaults={"user_id": link.user_id}
            )


def to_chat_ids(apps, schema_editor):
    TelegramLink = apps.get_model("notify", "TelegramLink")
    for link in TelegramLink.objects.select_related("chat"):
        link.chat_id_number = link.chat.chat_id
        link.save(update_fields=["chat_id_number"])


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0005_tasks"),
        ("telegram", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField("telegramlink", "chat_id", "chat_id_number"),
        migrations.AddField(
            model_name="telegramlink",
            name="chat",
            field=models.OneToOneField(
                null=True,
                on_delete=models.deletion.CASCADE,
                related_name="notify_link",
                to="telegram.chat",
            ),
        ),
        migrations.RunPython(to_chats, to_chat_ids),
        migrations.RemoveField("telegramlink", "chat_id_number"),
        migrations.AlterField(
            model_name="telegramlink",
            name="chat",
            field=models.OneToOneField(
                on_delete=models.deletion.CASCADE,
                related_name="notify_link",
                to="telegram.chat",
            ),
        ),
        migrations.AlterField(
            model_name="telegramlink",
            name="user",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="telegram_links",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
