"""The real mail stack for the integration tests: one per session, emptied before each test."""
from __future__ import annotations

import pytest

from integration.mailclient import USERS, password
from integration.mailstack import MailStack, MailStackError


@pytest.fixture(scope="session")
def mailstack():
    """A started MailStack with the four test users; stopped when the session ends."""
    stack = MailStack()
    for address in USERS:
        stack.add_user(address, password(address))
    try:
        stack.start()
        problem = None
    except MailStackError as err:
        problem = str(err)
    if problem:
        # These tests exist to run against real servers: a missing server is a failure.
        stack.stop()
        pytest.fail(f"the test mail stack did not start: {problem}", pytrace=False)
    yield stack
    stack.stop()


@pytest.fixture
def fresh_stack(mailstack):
    """The session's stack with every mailbox empty and both servers running."""
    mailstack.start_dovecot()
    mailstack.start_smtp()
    mailstack.reset()
    yield mailstack
