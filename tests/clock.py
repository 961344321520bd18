"""A clock a test moves by hand, put in place of the `time` module of a rate limiter, so that
its windows neither end by chance during a test nor need an hour of waiting."""

import time as real


class Clock:
    def __init__(self) -> None:
        self.now = real.time()

    def time(self) -> float:
        return self.now

    # What else the limiters take from `time`: their cache locks wait in real time.
    monotonic = staticmethod(real.monotonic)
    sleep = staticmethod(real.sleep)
