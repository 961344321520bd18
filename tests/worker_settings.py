"""The production settings for the app servers tests/test_rate_limits.py starts, with the fast
password hasher of the tests: there every failed login costs a hash, a second each with the
production hasher. Everything else is config.settings as deployed."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
