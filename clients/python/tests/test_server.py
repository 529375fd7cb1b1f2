"""The asyncio and synchronous clients against a real ``partita start``
(Voter schema, 2 sites): the Voter tally, every SQL type through @AdHoc and
back exactly, the server's errors as exception classes, bad input refused
before sending, routes refreshed after a schema change, and a server killed
with calls in flight."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from decimal import Decimal
from typing import Any, Awaitable, TypeVar

import pytest

import partita
import partita.aio
from server_process import ServerProcess

T = TypeVar("T")
NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,Jessie Eichman"
UTC = dt.timezone.utc
_tables = itertools.count()


def run(coroutine: Awaitable[T], timeout: float = 60) -> T:
    return asyncio.run(asyncio.wait_for(coroutine, timeout))  # type: ignore[arg-type]


async def standings(client: partita.aio.AsyncClient) -> dict[int, int]:
    table = (await client.call("Results")).results[0]
    return {row[1]: row[2] for row in table.rows}


def test_should_count_every_accepted_vote_once(server: ServerProcess) -> None:
    async def scenario() -> None:
        async with await partita.aio.connect(server.address) as client:
            await client.call("Initialize", [6, NAMES])
            before = await standings(client)
            rows_before = (await client.query("SELECT COUNT(*) FROM votes")).scalar()
            phones = [2125550000 + i for i in range(600)]
            calls = []
            for i, phone in enumerate(phones):
                contestant = 7 if i % 50 == 0 else 1 + i % 6
                for _ in range(3):  # the limit is 2 votes per phone: the third is refused
                    calls.append((contestant, client.call_nowait("Vote", [phone, contestant, 2])))
            answers = [(c, (await f).scalar()) for c, f in calls]
            accepted: dict[int, int] = {}
            for contestant, code in answers:
                if code == 0:
                    accepted[contestant] = accepted.get(contestant, 0) + 1
            assert sum(1 for _, code in answers if code == 1) == 12 * 3  # contestant 7 does not exist
            assert sum(1 for _, code in answers if code == 2) == 588  # one per valid phone
            after = await standings(client)
            for contestant in range(1, 7):
                assert after.get(contestant, 0) - before.get(contestant, 0) == accepted[contestant]
            rows_after = (await client.query("SELECT COUNT(*) FROM votes")).scalar()
            assert rows_after - rows_before == 2 * 588
            topology = client.topology
            assert topology is not None and topology.partition_count == 2
            assert client.router.partition("Vote", [phones[0]]) is not None  # routed, by table or fallback

    run(scenario())


def test_should_bring_back_every_type_exactly(server: ServerProcess) -> None:
    name = f"typed_{next(_tables)}"
    values = [
        [1, 2**63 - 1, 2**53 + 1, -128, -32768, -(2**31), 1.25, Decimal("99999999999999999999999999.999999999999"),
         "ünïcödé ✓", b"\x00\x01\xff", dt.datetime(2023, 11, 14, 22, 13, 20, 123457, tzinfo=UTC)],
        [2, -(2**63) + 1, -1, 127, 32767, 2**31 - 1, -0.5, Decimal("-0.000000000001"), "", b"",
         dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)],
        [3, None, None, None, None, None, None, None, None, None, None],
    ]

    async def scenario() -> None:
        async with await partita.aio.connect(server.address) as client:
            await client.query(f"CREATE TABLE {name} (id BIGINT NOT NULL PRIMARY KEY, b BIGINT, b2 BIGINT, "
                               "t TINYINT, s SMALLINT, i INTEGER, f FLOAT, d DECIMAL, v VARCHAR(40), "
                               "y VARBINARY(16), ts TIMESTAMP)")
            for row in values:
                inserted = await client.query(f"INSERT INTO {name} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                assert inserted.scalar() == 1
            table = await client.query(f"SELECT * FROM {name} ORDER BY id")
            assert [c.name.lower() for c in table.columns] == ["id", "b", "b2", "t", "s", "i", "f", "d", "v", "y",
                                                               "ts"]
            assert [list(r) for r in table.rows] == values
            assert table.micros(1, 10) == -1
            found = await client.query(f"SELECT id FROM {name} WHERE ts = ?", [values[0][10]])
            assert found.rows == [(1,)]

    run(scenario())


def test_should_raise_the_servers_errors_as_their_classes(server: ServerProcess) -> None:
    name = f"keys_{next(_tables)}"

    async def scenario() -> None:
        async with await partita.aio.connect(server.address) as client:
            with pytest.raises(partita.ProcedureNotFoundError) as caught:
                await client.call("NoSuchProcedure", [1])
            assert caught.value.status == "REJECTED" and caught.value.error_code > 0
            with pytest.raises(partita.BadParameterError, match="Vote"):
                await client.call("Vote", ["not a number", 1, 2])
            with pytest.raises(partita.BadParameterError):
                await client.call("Vote", [1])
            with pytest.raises(partita.SqlError, match="(?i)nope"):
                await client.query("SELECT nope FROM votes")
            await client.query(f"CREATE TABLE {name} (k BIGINT NOT NULL PRIMARY KEY, v VARCHAR(3))")
            await client.query(f"INSERT INTO {name} VALUES (?, ?)", [1, "a"])
            with pytest.raises(partita.ConstraintViolationError):
                await client.query(f"INSERT INTO {name} VALUES (?, ?)", [1, "b"])
            with pytest.raises(partita.DataError):
                await client.query(f"INSERT INTO {name} VALUES (?, ?)", [2, "toolong"])
            with pytest.raises(partita.UserAbortError, match="max must be 0 or more"):
                await client.call("ContestantWinningStates", [1, -1])
            response = await client.call("NoSuchProcedure", [], check=False)
            assert not response.ok and response.error_name

    run(scenario())


def test_should_refuse_bad_input_before_sending(server: ServerProcess) -> None:
    async def scenario() -> None:
        async with await partita.aio.connect(server.address) as client:
            with pytest.raises(partita.ParameterError, match="parameter 1 is the int"):
                await client.call("Vote", [2**64, 1, 2])
            with pytest.raises(partita.ParameterError, match="parameter 2 is a builtins.set"):
                await client.call("Vote", [1, {1}, 2])
            with pytest.raises(partita.ParameterError, match="naive datetime"):
                await client.query("SELECT ?", [dt.datetime(2020, 1, 1)])
            with pytest.raises(partita.FrameTooLargeError, match="max_frame_bytes"):
                await client.query("SELECT ?", [b"x" * (33 << 20)])
            assert client.stats.calls == 0
            assert (await client.call("Vote", [2125559999, 1, 2])).ok  # the connection is fine

    run(scenario())


def test_should_refresh_routes_after_a_schema_change_by_another_client(server: ServerProcess) -> None:
    name = f"notes_{next(_tables)}"
    procedure = f"NoteBody{next(_tables)}"

    async def scenario() -> None:
        async with await partita.aio.connect(server.address) as early, \
                await partita.aio.connect(server.address) as admin:
            version = early.router.catalog_version
            await admin.query(f"CREATE TABLE {name} (id BIGINT NOT NULL PRIMARY KEY, body VARCHAR(40))")
            await admin.query(f"PARTITION TABLE {name} ON COLUMN id")
            await admin.query(f"CREATE PROCEDURE {procedure} PARTITION ON TABLE {name} COLUMN id AS "
                              f"SELECT body FROM {name} WHERE id = ?")
            await admin.query(f"INSERT INTO {name} VALUES (?, ?)", [7, "seven"])
            assert early.router.route(procedure) is None
            assert (await early.call(procedure, [7])).scalar() == "seven"  # the server routes it
            while early.router.route(procedure) is None:
                await asyncio.sleep(0.01)
            assert early.router.catalog_version > version
            assert early.router.partition(procedure, [7]) is not None
            assert (await early.call(procedure, [7])).scalar() == "seven"

    run(scenario())


def test_should_serve_threads_through_the_synchronous_client(server: ServerProcess) -> None:
    with partita.connect(server.address, client_name="pytest-sync") as client:
        client.call("Initialize", [6, NAMES])
        futures = [client.call_async("Vote", [3105550000 + i, 1 + i % 6, 2]) for i in range(300)]
        assert all(f.result(30).scalar() == 0 for f in futures)
        assert client.query("SELECT COUNT(*) FROM votes WHERE phone_number >= ? AND phone_number < ?",
                            [3105550000, 3105550300]).scalar() == 300


def test_should_fail_calls_in_flight_with_connection_lost_when_the_server_dies(own_server: ServerProcess) -> None:
    async def scenario() -> None:
        client = await partita.aio.connect(own_server.address, reconnect=False)
        await client.call("Initialize", [6, NAMES])
        futures = [client.call_nowait("Vote", [4155550000 + i, 1 + i % 6, 2]) for i in range(3000)]
        await asyncio.sleep(0)  # the batch leaves
        own_server.kill()
        outcomes = await asyncio.gather(*futures, return_exceptions=True)
        lost = [o for o in outcomes if isinstance(o, partita.ConnectionLostError)]
        answered = [o for o in outcomes if isinstance(o, partita.Response)]
        assert lost, "the server was killed before answering every call"
        assert len(lost) + len(answered) == 3000
        assert all(a.ok for a in answered)
        assert own_server.address in str(lost[0])
        with pytest.raises(partita.NoConnectionsError):
            await client.call("Vote", [1, 1, 2])
        await client.close()

    run(scenario())
