"""The real mail stack for the integration tests: one per session, emptied before each test."""
from __future__ import annotations

import pytest

from mailstack import MailStack, MailStackError

USERS = ("gm@example.test", "george@example.test", "bill@example.test", "mallory@example.test")


def password(address: str) -> str:
    return address.split("@")[0] + "-pw"


@pytest.fixture(scope="session")
def mailstack():
    """A started MailStack with the four test users; stopped when the session ends."""
    stack = MailStack()
    for address in USERS:
        stack.add_user(address, password(address))
    try:
        stack.start()
    except MailStackError as err:
        # These tests exist to run against real servers: a missing server is a failure.
        stack.stop()
        pytest.fail(f"the test mail stack did not start: {err}", pytrace=False)
    yield stack
    stack.stop()


@pytest.fixture
def fresh_stack(mailstack):
    """The session's stack with every mailbox empty and both servers running."""
    mailstack.start_dovecot()
    mailstack.start_smtp()
    mailstack.reset()
    return mailstack
