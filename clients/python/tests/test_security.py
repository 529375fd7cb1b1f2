"""The client against a server started with ``--users`` (docs/security.md):
the SCRAM-SHA-256 steps against RFC 7677's example, a login and a
permission denial, and refusals for a wrong password and no credentials."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

import partita
from conftest import _need_build
from partita._scram import ScramClient
from server_process import REPO, ServerProcess


def _passwd(users: Path, user: str, roles: str, password: str) -> None:
    subprocess.run([str(REPO / "scripts/partita"), "passwd", "--iterations", "4096", "--users", str(users),
                    "--roles", roles, user], input=password + "\n", text=True, check=True, capture_output=True,
                   timeout=120)


@pytest.fixture(scope="module")
def secured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    _need_build()
    users = tmp_path_factory.mktemp("security") / "users"
    _passwd(users, "admin", "administrator", "py-secret")
    _passwd(users, "alice", "user", "alice-secret")
    process = ServerProcess("--users", str(users), sites=1)
    try:
        process.start()
        yield process
    finally:
        process.stop()


def test_should_reproduce_the_rfc7677_example() -> None:
    scram = ScramClient("user", "pencil", "rOprNGfwEbeRWgbNEkqO")
    assert scram.client_first() == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    assert scram.client_final("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,"
                              "i=4096") == ("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                                            "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    assert scram.verify_server_final("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    assert not scram.verify_server_final("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    with pytest.raises(ValueError, match="4096"):
        other = ScramClient("u", "p", "abc")
        other.client_first()
        other.client_final("r=abcd,s=AAAA,i=1")


def test_should_log_in_and_be_held_to_its_roles(secured: ServerProcess) -> None:
    with partita.connect(secured.address, user="admin", password="py-secret", reconnect=False) as admin:
        assert admin.call("@Ping").ok
    with partita.connect(secured.address, user="alice", password="alice-secret", reconnect=False) as alice:
        answer = alice.call("@Shutdown", check=False)
        assert answer.error_name == "PERMISSION_DENIED", answer
        assert "ADMIN" in answer.message


def test_should_refuse_a_wrong_password_and_no_credentials(secured: ServerProcess) -> None:
    with pytest.raises(partita.LoginRefusedError, match="AUTHENTICATION_FAILED"):
        partita.connect(secured.address, user="alice", password="wrong", reconnect=False)
    with pytest.raises(partita.LoginRefusedError, match="AUTHENTICATION_REQUIRED"):
        partita.connect(secured.address, reconnect=False)


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    _need_build()
    directory = tmp_path_factory.mktemp("tls")
    store = directory / "server.p12"
    for args in (["-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                  "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-storetype", "PKCS12"],
                 ["-exportcert", "-rfc", "-alias", "server", "-file", str(directory / "server.pem")]):
        subprocess.run(["keytool", *args, "-keystore", str(store), "-storepass", "py-store"], check=True,
                       capture_output=True, timeout=60)
    process = ServerProcess("--tls-keystore", str(store), "--tls-keystore-password", "py-store", sites=1)
    try:
        process.start()
        yield process, directory / "server.pem"
    finally:
        process.stop()


def test_should_speak_tls_to_a_server_it_trusts(tls_server: tuple[ServerProcess, Path]) -> None:
    process, pem = tls_server
    port = process.address.rsplit(":", 1)[1]
    context = ssl.create_default_context(cafile=str(pem))
    with partita.connect(f"localhost:{port}", tls=context, reconnect=False) as client:
        assert client.call("@Ping").ok
    with pytest.raises(partita.PartitaError):
        partita.connect(f"localhost:{port}", tls=ssl.create_default_context(), reconnect=False)
    with pytest.raises(partita.PartitaError):
        partita.connect(f"localhost:{port}", reconnect=False, connect_timeout=5)
