"""The site's tasks run on Redis too (django-tasks-rq, docs/deployment.md): a notification
told in a transaction is enqueued once it commits, and an RQ worker delivers it once; a
transaction undone enqueues nothing."""

from __future__ import annotations

import pytest
import redis
from asgiref.local import Local
from django.core import mail
from django.db import transaction
from django.tasks import task_backends
from django_tasks_rq.backend import Job
from rq import SimpleWorker

from core import tasks
from notify import kinds, services
from notify.models import Delivery
from tests.servers import REDIS_URL

pytestmark = pytest.mark.django_db(transaction=True)

# A Redis database of this test's own, emptied before and after.
RQ_URL = REDIS_URL.rsplit("/", 1)[0] + "/7"


@pytest.fixture
def on_redis(settings, monkeypatch):
    server = redis.Redis.from_url(RQ_URL, socket_timeout=2)
    try:
        server.ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis at {RQ_URL} ({error})")
    server.flushdb()
    settings.RQ_QUEUES = {"default": {"URL": RQ_URL}}
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    backend = {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}
    monkeypatch.setattr(task_backends, "settings", {"default": backend})
    monkeypatch.setattr(
        task_backends, "_connections", Local(thread_critical=task_backends.thread_critical)
    )
    assert not tasks.in_the_database()
    yield server
    server.flushdb()
    server.close()


def rq_worker_runs_what_is_queued() -> None:
    import django_rq

    queue = django_rq.get_queue("default", job_class=Job)
    worker = SimpleWorker([queue], connection=queue.connection, job_class=Job)
    worker.work(burst=True)


def test_a_notification_is_delivered_once_by_an_rq_worker(on_redis, alice):
    with transaction.atomic():
        services.tell(
            user=alice, told=kinds.YourMove(table_id=1, name="Friday table", path="/play/1/")
        )
        assert on_redis.keys("rq:job:*") == []  # not before the transaction commits
    assert len(on_redis.keys("rq:job:*")) == 1
    rq_worker_runs_what_is_queued()
    [message] = mail.outbox
    assert message.to == ["alice@example.com"] and "Friday table" in message.subject
    assert Delivery.objects.get().status == Delivery.Status.SENT
    # Run again, the worker has nothing to send.
    rq_worker_runs_what_is_queued()
    assert len(mail.outbox) == 1


def test_a_transaction_undone_enqueues_nothing(on_redis, alice):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.tell(user=alice, told=kinds.YourMove(table_id=1))
        raise RuntimeError("the move that caused it failed")
    assert on_redis.keys("rq:job:*") == []
    assert not Delivery.objects.exists()


def test_a_delivery_whose_task_was_lost_is_queued_again_and_sent_once(on_redis, alice):
    import datetime

    from django.utils import timezone

    from notify import tasks as notify_tasks

    services.tell(user=alice, told=kinds.YourMove(table_id=1))
    on_redis.flushdb()  # the process stopped between the commit and the enqueueing
    Delivery.objects.update(due_at=timezone.now() - datetime.timedelta(minutes=6))
    assert notify_tasks.look_for_lost_deliveries.call() == 1
    rq_worker_runs_what_is_queued()
    assert len(mail.outbox) == 1
    assert Delivery.objects.get().status == Delivery.Status.SENT
