"""The telegram app's writes: an update taken once, the people and chats it shows, a group's
move to a supergroup, the bot's place in a chat, an identity claimed by an account. What the
bot says is written by telegram.outbox."""

from __future__ import annotations

import datetime

from django.db import transaction

from telegram import signals, updates
from telegram.models import Chat, Identity, Member, Post, TakenUpdate


def take(update_id: int) -> bool:
    """Records the update as taken, in the caller's transaction; False if it was taken before
    (Telegram gave it again)."""
    _row, created = TakenUpdate.objects.get_or_create(update_id=update_id)
    return created


def forget_updates(*, before: datetime.datetime) -> int:
    deleted, _ = TakenUpdate.objects.filter(taken_at__lt=before).delete()
    return deleted


def note_person(person: updates.User) -> Identity | None:
    """The identity of whoever sent an update, with their names and language as it gives
    them (bots: none)."""
    if person.is_bot:
        return None
    identity, _created = Identity.objects.update_or_create(
        telegram_id=person.id,
        defaults={
            "first_name": person.first_name[:128],
            "last_name": person.last_name[:128],
            "username": person.username[:64],
            "language_code": person.language_code[:16],
        },
    )
    return identity


def note_chat(chat: updates.Chat) -> Chat:
    row, _created = Chat.objects.update_or_create(
        chat_id=chat.id,
        defaults={
            "kind": chat.type if chat.type in Chat.Kind.values else Chat.Kind.GROUP,
            "title": chat.name[:256],
        },
    )
    return row


def note(update: updates.Update) -> tuple[Chat | None, Identity | None]:
    """What an update shows of the chat it came from and of its sender: the people and chats
    the bot knows, who is in a group, the bot's own place, a group's move to a supergroup.
    Returns (the chat, the sender's identity), either None when the update has none."""
    message = update.message
    if message is not None and message.migrate_to_chat_id is not None:
        migrate(old_id=message.chat.id, new_id=message.migrate_to_chat_id)
    if message is not None and message.migrate_from_chat_id is not None:
        migrate(old_id=message.migrate_from_chat_id, new_id=message.chat.id)
    sender = update.sender
    identity = note_person(sender) if sender is not None else None
    seen = update.chat
    if message is not None and message.migrate_to_chat_id is not None:
        # Said in the group that is no more: the chat is the supergroup's row now.
        chat = Chat.objects.filter(chat_id=message.migrate_to_chat_id).first()
        return chat, identity
    chat = note_chat(seen) if seen is not None else None
    if chat is not None and seen is not None and seen.group:
        if identity is not None and update.my_chat_member is None:
            Member.objects.get_or_create(chat=chat, identity=identity)
        if message is not None:
            for person in message.new_chat_members:
                joined = note_person(person)
                if joined is not None:
                    Member.objects.get_or_create(chat=chat, identity=joined)
            if message.left_chat_member is not None:
                Member.objects.filter(
                    chat=chat, identity__telegram_id=message.left_chat_member.id
                ).delete()
    if update.my_chat_member is not None and chat is not None:
        place = update.my_chat_member.new_chat_member
        if place is not None:
            set_bot_member(chat, present=place.present)
    elif chat is not None and not chat.bot_is_member and message is not None:
        # Written to again (a person unblocked the bot and wrote): the bot is back.
        set_bot_member(chat, present=True)
    return chat, identity


def set_bot_member(chat: Chat, *, present: bool) -> None:
    if chat.bot_is_member == present:
        return
    chat.bot_is_member = present
    chat.save(update_fields=["bot_is_member", "seen_at"])
    if not present:
        signals.chat_closed.send(sender=Chat, chat=chat)


def close_chat(chat_id: int) -> None:
    """The bot can no longer write to `chat_id` (Telegram said so when it tried)."""
    with transaction.atomic():
        chat = Chat.objects.select_for_update().filter(chat_id=chat_id).first()
        if chat is not None:
            set_bot_member(chat, present=False)


def migrate(*, old_id: int, new_id: int) -> None:
    """A group became a supergroup with a new id: its row (and all that is tied to it) moves
    to that id. Said twice by Telegram (in the group and in the supergroup): the second time
    finds it moved. A row the supergroup got meanwhile gives its members to the group's and
    goes."""
    with transaction.atomic():
        old = Chat.objects.select_for_update().filter(chat_id=old_id).first()
        if old is None:
            return
        new = Chat.objects.select_for_update().filter(chat_id=new_id).first()
        if new is not None:
            for member in new.members.all():
                Member.objects.get_or_create(chat=old, identity_id=member.identity_id)
            new.delete()
        old.chat_id = new_id
        old.kind = Chat.Kind.SUPERGROUP
        old.save(update_fields=["chat_id", "kind", "seen_at"])


def claim(identity: Identity, user) -> None:
    """`identity` is `user`'s (they proved it from their account): an account has one
    Telegram identity, an identity one account; an earlier claim on either gives way."""
    with transaction.atomic():
        Identity.objects.filter(user=user).exclude(pk=identity.pk).update(user=None)
        if identity.user_id != user.pk:
            identity.user = user
            identity.save(update_fields=["user", "seen_at"])


# --- posts the bot keeps up to date (telegram.outbox.post) -----------------------------------


def revise_post(*, chat: Chat, key: str, html: str, buttons: list | None = None) -> Post | None:
    """The newest words of the chat's post `key` (its row locked, in the caller's
    transaction). Returns the post when a task is to show them: a new post, or one Telegram
    shows already (an edit); None while its first sending is still on its way (that task
    shows the newest words when it is done)."""
    post, created = Post.objects.select_for_update().get_or_create(
        chat=chat, key=key, defaults={"html": html, "buttons": buttons or []}
    )
    if created:
        return post
    if post.html == html and post.buttons == (buttons or []) and not post.lost:
        return None  # the same words again: nothing to show
    post.html, post.buttons = html, buttons or []
    post.revision += 1
    waiting = post.message_id is None and not post.lost
    post.lost = False
    post.save(update_fields=["html", "buttons", "revision", "lost", "updated_at"])
    return None if waiting else post


def post_shown(post_id: int, *, revision: int, message_id: int) -> int:
    """Telegram shows `revision` of the post as message `message_id`; returns its newest
    revision (a newer one than was sent is to be shown too)."""
    with transaction.atomic():
        post = Post.objects.select_for_update().get(pk=post_id)
        post.message_id = message_id
        post.shown = max(post.shown, revision)
        post.save(update_fields=["message_id", "shown", "updated_at"])
        return post.revision


def post_gone(post_id: int) -> None:
    """The post's message is no longer in its chat (deleted by someone, or the group moved):
    the next showing sends it anew."""
    Post.objects.filter(pk=post_id).update(message_id=None, shown=0)


def post_lost(post_id: int) -> None:
    """The post's first sending was given up: its next revision sends it again."""
    Post.objects.filter(pk=post_id, message_id__isnull=True).update(lost=True)
