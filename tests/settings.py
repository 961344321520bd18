"""Settings of the test run: the development configuration (DJANGO_DEBUG=1).

Without it the settings are production's, which want a secret key, HTTPS and collected static
files. pytest-django still turns DEBUG off while the tests run, and tests/test_deployment.py
checks the production configuration in processes of its own.
"""

import os
from unittest import mock

# Only while the settings are read: processes the tests start get the environment as it was.
with mock.patch.dict(os.environ, {"DJANGO_DEBUG": "1"}):
    from config.settings import *  # noqa: F403

# The live server's threads (tests/asgi_server.py) close their connections after each
# request, so that the test database can be dropped at the end of the run.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# The tests' push services: a fake one on this machine, and the address the browser test's
# stubbed browser subscribes with.
PUSH_SERVICE_HOSTS = [*PUSH_SERVICE_HOSTS, "127.0.0.1", "push.example.org"]  # noqa: F405

# The coach reviews the rounds the tests finish in the worker's passes: at a small budget (a
# few deals a decision), so that those passes stay short. Its own tests set theirs.
COACH_REVIEW_BUDGET = 0.002
