"""The telegram app's writes: an update taken once, the people and chats it shows, a group's
move to a supergroup, the bot's place in a chat, an identity claimed by an account, a person
signed in by their Telegram account (the Mini App, the Login Widget). What the bot says is
written by telegram.outbox."""

from __future__ import annotations

import datetime

from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.db import transaction

from telegram import signals, updates, webapp
from telegram.models import Chat, Identity, Member, Post, TakenUpdate, UsedInitData

# allauth's name for Telegram: its SocialAccount rows of this provider are keyed by the
# Telegram user id, so that the Login Widget finds the account the Mini App made.
PROVIDER = "telegram"


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
        _sign_in_leads_to(identity.telegram_id, user)


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


# --- signing in by Telegram (the Mini App, the Login Widget) ---------------------------------


def use_init_data(*, signature: str, expires_at: datetime.datetime) -> bool:
    """Marks a Mini App's initData used, in the caller's transaction; False if it was used
    before (a replay)."""
    _row, created = UsedInitData.objects.get_or_create(
        signature=signature, defaults={"expires_at": expires_at}
    )
    return created


def forget_used_init_data(*, before: datetime.datetime) -> int:
    deleted, _ = UsedInitData.objects.filter(expires_at__lt=before).delete()
    return deleted


def open_app(data: webapp.WebAppData):
    """The account a Mini App's checked initData signs in (sign_in), the initData used up with
    it; None when it was used before (a replay)."""
    with transaction.atomic():
        expires_at = datetime.datetime.fromtimestamp(
            data.auth_date + webapp.MAX_AGE + webapp.FUTURE, tz=datetime.UTC
        )
        if not use_init_data(signature=data.signature, expires_at=expires_at):
            return None
        return sign_in(data.user)


def sign_in(person: updates.User):
    """The account of the Telegram user `person` (proved by Telegram's signature: the Mini
    App's initData, the Login Widget's answer): their identity's account (one made there, or
    linked from the account page), else a new one, with no password, theirs from now on. The
    same Telegram user is always the same account. Locks the identity's row."""
    with transaction.atomic():
        identity = note_person(person)
        if identity is None:
            raise ValueError("a bot never signs in")
        identity = Identity.objects.select_for_update().get(pk=identity.pk)
        user = identity.user
        if user is None:
            user = _new_account(person)
            identity.user = user
            identity.save(update_fields=["user", "seen_at"])
        _sign_in_leads_to(identity.telegram_id, user)
    return user


def _new_account(person: updates.User):
    users = get_user_model().objects
    tried = [person.username, f"tg{person.id}"] if person.username else [f"tg{person.id}"]
    username = next(
        (name for name in tried if not users.filter(username__iexact=name).exists()), ""
    )
    suffix = 2
    while not username:
        candidate = f"tg{person.id}_{suffix}"
        if not users.filter(username__iexact=candidate).exists():
            username = candidate
        suffix += 1
    user = users.model(
        username=username, first_name=person.first_name[:150], last_name=person.last_name[:150]
    )
    user.set_unusable_password()
    user.save()
    return user


def _sign_in_leads_to(telegram_id: int, user) -> None:
    """allauth's record of the Telegram account follows the identity's account."""
    SocialAccount.objects.update_or_create(
        provider=PROVIDER, uid=str(telegram_id), defaults={"user": user}
    )
