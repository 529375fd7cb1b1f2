"""Resend policy: which answered calls the client sends again on its own;
the one place that decides it (docs/cluster.md, "Routing").

``NOT_LEADER`` says the call was not run (the host asked does not lead its
partition): the client reads the newest topology and sends the call again,
at most :data:`MAX_NOT_LEADER_RESENDS` times; after that the caller sees
``NOT_LEADER``. A routed call answered ``NOT_LEADER`` by a host whose
topology is older than the client's (that host has not followed the map
yet; hosts follow a new map some milliseconds apart, and the client may
hear of it first from another host) goes to its leader again after a short
wait (:func:`behind_host_wait`), at most :data:`MAX_BEHIND_WAITS` times, not
counted against those resends. Nothing else is sent again: a call whose outcome is unknown
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


#: Waits for a host behind the client's topology, at most, per call (about 2.8 s in all).
MAX_BEHIND_WAITS = 60


def behind_host_wait(error_name: str, partition: int | None, answer_version: int, client_version: int | None,
                     waits: int) -> float | None:
    """For a call routed to ``partition`` (None: not routed) answered with
    ``error_name`` by a host knowing topology ``answer_version`` while the
    client routes by ``client_version`` (None: no topology yet), after
    ``waits`` such waits: the seconds to wait before sending it to its
    leader again (1 ms, doubling up to 50 ms), or None when it is not one to
    wait for."""
    if (error_name != "NOT_LEADER" or partition is None or client_version is None
            or answer_version >= client_version or waits >= MAX_BEHIND_WAITS):
        return None
    return min(0.050, 0.001 * (1 << min(waits, 20)))
