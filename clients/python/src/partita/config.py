"""ClientConfig: the settings of a client. Immutable."""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field

DEFAULT_PORT = 21212


@dataclass(frozen=True)
class ClientConfig:
    """Settings of :class:`partita.aio.AsyncClient` and :class:`partita.Client`.

    Times are in seconds.
    """

    #: Names this client in the server's logs and ``@Statistics CONNECTIONS``.
    client_name: str = "partita-python"
    #: How long ``connect`` waits for the TCP connection and the login answer.
    connect_timeout: float = 10.0
    #: A call's timeout when the call does not give its own.
    call_timeout: float = 120.0
    #: How often each connection looks for calls past their timeout.
    sweep_interval: float = 0.01
    #: Calls in flight per connection; beyond it calls wait (``backpressure_timeout``).
    max_in_flight: int = 4096
    #: How long a call waits for room before BackpressureError; 0 = fail at once.
    backpressure_timeout: float = 10.0
    #: Reopen a connection that dropped, after a backoff.
    reconnect: bool = True
    #: After each login, connect in the background to every host of the
    #: cluster the login lists that the client has no connection to (by host
    #: id and address), so one address of a cluster is enough; a host that
    #: cannot be reached is logged (logger ``partita``) and left. False keeps
    #: the client to the servers given.
    discover_hosts: bool = True
    #: First wait before reconnecting; doubles after each failure up to ``reconnect_max_backoff``.
    reconnect_initial_backoff: float = 0.1
    reconnect_max_backoff: float = 5.0
    #: The largest frame accepted from a server; a larger one closes the connection.
    max_response_frame_bytes: int = 1 << 30
    #: Log in as this user with SCRAM-SHA-256 (a server started with ``--users``,
    #: docs/security.md); None logs in without authentication.
    user: str | None = None
    #: The user's password; never sent (SCRAM proves it).
    password: str | None = field(default=None, repr=False)
    #: Speak TLS with this context (a server started with ``--tls-*``), e.g.
    #: ``ssl.create_default_context(cafile="server.pem")``, which verifies the
    #: server's certificate and host name; None for plain TCP.
    tls: ssl.SSLContext | None = None

    def __post_init__(self) -> None:
        for name in ("connect_timeout", "call_timeout", "sweep_interval", "reconnect_initial_backoff",
                     "reconnect_max_backoff"):
            if not getattr(self, name) > 0:
                raise ValueError(f"ClientConfig.{name} must be more than 0 seconds, got {getattr(self, name)!r}")
        if not self.backpressure_timeout >= 0:
            raise ValueError(f"ClientConfig.backpressure_timeout must be 0 or more, got {self.backpressure_timeout!r}")
        if self.max_in_flight < 1:
            raise ValueError(f"ClientConfig.max_in_flight must be at least 1, got {self.max_in_flight!r}")
        if self.max_response_frame_bytes < 1024:
            raise ValueError("ClientConfig.max_response_frame_bytes must be at least 1024")


def parse_address(address: str) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` -> (host, port).

    Raises ValueError naming what is wrong.
    """
    text = address.strip()
    if not text:
        raise ValueError("empty server address")
    if text.startswith("["):
        close = text.find("]")
        if close < 0:
            raise ValueError(f"server address {address!r}: '[' without ']'")
        host, rest = text[1:close], text[close + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"server address {address!r}: expected ':port' after ']'")
        port_text = rest[1:] if rest else ""
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    elif ":" in text:
        raise ValueError(f"server address {address!r}: write an IPv6 address as [addr]:port")
    else:
        host, port_text = text, ""
    if not host:
        raise ValueError(f"server address {address!r}: no host")
    if not port_text:
        return host, DEFAULT_PORT
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"server address {address!r}: port must be 1..65535, got {port_text!r}")
    return host, int(port_text)
