"""Resend policy: which answered calls the client sends again on its own;
the one place that decides it (docs/cluster.md, "Routing").

``NOT_LEADER`` says the call was not run (the host asked does not lead its
partition): the client reads the newest topology and sends the call again,
at most :data:`MAX_NOT_LEADER_RESENDS` times; after that the caller sees
``NOT_LEADER``. Nothing else is sent again: a call whose outcome is unknown
(its connection dropped, it timed out, ``OUTCOME_UNKNOWN``) may have run,
and the server does not de-duplicate a call sent twice yet.

Thread model: stateless.
"""

from __future__ import annotations

#: Times a call answered NOT_LEADER is sent again at most.
MAX_NOT_LEADER_RESENDS = 2


def resend_after(error_name: str, resends: int) -> bool:
    """True when a call answered with ``error_name``, already sent again
    ``resends`` times, is to be sent again."""
    return error_name == "NOT_LEADER" and resends < MAX_NOT_LEADER_RESENDS
