"""A new VAPID key pair for web push, printed as the settings take it (docs/push.md)."""

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


def new_key_pair() -> tuple[str, str]:
    """(public, private), base64url: the public key as browsers take it (an uncompressed
    P-256 point, `applicationServerKey`), the private key as its 32 bytes."""
    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64urlencode(public), b64urlencode(private)


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for web push, as DJANGO_VAPID_PUBLIC_KEY and "
        "DJANGO_VAPID_PRIVATE_KEY. Changing the keys turns push off in every browser that "
        "turned it on: each must turn it on again."
    )

    def handle(self, *args, **options) -> None:
        public, private = new_key_pair()
        self.stdout.write(f"DJANGO_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"DJANGO_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("DJANGO_VAPID_SUBJECT=mailto:you@example.org")
