"""The client's side of one SCRAM-SHA-256 login (RFC 5802, RFC 7677;
docs/wire-protocol.md, "Authentication"), with ``hashlib`` and ``hmac``:
:meth:`ScramClient.client_first`, then :meth:`ScramClient.client_final` for
the server-first message, then :meth:`ScramClient.verify_server_final`.
One object per login attempt; not shared between threads.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

MECHANISM = "SCRAM-SHA-256"
_MIN_ITERATIONS = 4096


def _hmac(key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hashlib.sha256).digest()


def _attributes(message: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in message.split(","):
        if len(part) < 2 or part[1] != "=" or part[0] in out:
            raise ValueError("the server sent a malformed SCRAM step")
        out[part[0]] = part[2:]
    return out


class ScramClient:
    """See the module comment."""

    def __init__(self, user: str, password: str, nonce: str | None = None) -> None:
        self._user = user
        self._password = password
        self._nonce = nonce if nonce is not None else base64.b64encode(secrets.token_bytes(24)).decode()
        self._client_first_bare = ""
        self._expected_signature: bytes | None = None

    def client_first(self) -> str:
        """The client-first message: ``n,,n=user,r=nonce``."""
        name = self._user.replace("=", "=3D").replace(",", "=2C")
        self._client_first_bare = f"n={name},r={self._nonce}"
        return "n,," + self._client_first_bare

    def client_final(self, server_first: str) -> str:
        """The client-final message; raises ValueError naming what is wrong with ``server_first``."""
        a = _attributes(server_first)
        nonce = a.get("r", "")
        if not nonce.startswith(self._nonce) or len(nonce) == len(self._nonce):
            raise ValueError("the server's nonce does not extend the client's")
        try:
            salt = base64.b64decode(a.get("s", ""), validate=True)
            iterations = int(a.get("i", ""))
        except ValueError as e:
            raise ValueError(f"the server sent a malformed salt or iteration count: {e}") from None
        if iterations < _MIN_ITERATIONS:
            raise ValueError(f"the server asks for {iterations} iterations, fewer than {_MIN_ITERATIONS}")
        salted = hashlib.pbkdf2_hmac("sha256", self._password.encode("utf-8"), salt, iterations)
        client_key = _hmac(salted, b"Client Key")
        without_proof = f"c=biws,r={nonce}"
        auth_message = f"{self._client_first_bare},{server_first},{without_proof}".encode("utf-8")
        self._expected_signature = _hmac(_hmac(salted, b"Server Key"), auth_message)
        signature = _hmac(hashlib.sha256(client_key).digest(), auth_message)
        proof = bytes(k ^ s for k, s in zip(client_key, signature))
        return f"{without_proof},p={base64.b64encode(proof).decode()}"

    def verify_server_final(self, server_final: str) -> bool:
        """True iff ``server_final`` carries the signature only a server holding the user's ServerKey can make."""
        if self._expected_signature is None or not server_final.startswith("v="):
            return False
        try:
            signature = base64.b64decode(server_final[2:], validate=True)
        except ValueError:
            return False
        return hmac.compare_digest(signature, self._expected_signature)
