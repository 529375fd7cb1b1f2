"""partita.dbapi (PEP 249) against a real server: module globals, execute
with parameters, fetches, description, rowcount, callproc and nextset, the
exception tree, and misuse."""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal

import pytest

import partita
from partita import dbapi
from server_process import ServerProcess

_names = itertools.count()


def test_should_declare_the_module_globals() -> None:
    assert (dbapi.apilevel, dbapi.threadsafety, dbapi.paramstyle) == ("2.0", 2, "qmark")
    assert issubclass(dbapi.IntegrityError, dbapi.DatabaseError) and issubclass(dbapi.DatabaseError, dbapi.Error)
    assert issubclass(dbapi.InterfaceError, dbapi.Error) and issubclass(dbapi.NotSupportedError, dbapi.DatabaseError)
    assert dbapi.NUMBER == partita.ValueType.BIGINT and dbapi.STRING == partita.ValueType.VARCHAR
    assert dbapi.DATETIME != partita.ValueType.VARCHAR
    assert dbapi.Timestamp(2020, 1, 2).tzinfo is dt.timezone.utc


def test_should_refuse_a_malformed_address_and_an_unreachable_server() -> None:
    with pytest.raises(dbapi.InterfaceError, match="port"):
        dbapi.connect("127.0.0.1:0")
    with pytest.raises(dbapi.OperationalError, match="cannot connect"):
        dbapi.connect("127.0.0.1:1")


def test_should_execute_fetch_and_describe(server: ServerProcess) -> None:
    name = f"dbapi_{next(_names)}"
    with dbapi.connect(server.address) as conn:
        cur = conn.cursor()
        cur.execute(f"CREATE TABLE {name} (id BIGINT NOT NULL PRIMARY KEY, label VARCHAR(10), amount DECIMAL)")
        cur.executemany(f"INSERT INTO {name} VALUES (?, ?, ?)",
                        [(i, f"n{i}", Decimal(i) / 4) for i in range(5)])
        assert cur.rowcount == 5
        cur.execute(f"UPDATE {name} SET label = ? WHERE id >= ?", ("big", 3))
        assert cur.rowcount == 2 and cur.description is None
        with pytest.raises(dbapi.InterfaceError, match="no rows to fetch"):
            cur.fetchone()
        cur.execute(f"SELECT id, label, amount FROM {name} WHERE id < ? ORDER BY id", [4])
        assert [d[0].lower() for d in cur.description] == ["id", "label", "amount"]
        assert cur.description[0][1] == dbapi.NUMBER and cur.description[1][1] == dbapi.STRING
        assert cur.rowcount == 4
        assert cur.fetchone() == (0, "n0", Decimal(0))
        assert cur.fetchmany(2) == [(1, "n1", Decimal("0.25")), (2, "n2", Decimal("0.5"))]
        assert cur.fetchall() == [(3, "big", Decimal("0.75"))]
        assert cur.fetchone() is None and cur.fetchall() == []
        conn.commit()


def test_should_call_procedures_and_walk_their_tables(server: ServerProcess) -> None:
    with dbapi.connect(server.address) as conn:
        cur = conn.cursor()
        assert cur.callproc("Initialize", (6, "A,B,C,D,E,F")) == (6, "A,B,C,D,E,F")
        assert cur.fetchone()[0] >= 1
        cur.callproc("Vote", [5105550001, 2, 2])
        assert cur.fetchone() == (0,)
        cur.callproc("Results")
        rows = cur.fetchall()
        assert rows and len(rows[0]) == 3
        assert cur.nextset() is None and cur.description is None


def test_should_map_server_errors_onto_the_pep_249_tree(server: ServerProcess) -> None:
    name = f"dbapi_{next(_names)}"
    with dbapi.connect(server.address) as conn:
        cur = conn.cursor()
        cur.execute(f"CREATE TABLE {name} (id BIGINT NOT NULL PRIMARY KEY)")
        cur.execute(f"INSERT INTO {name} VALUES (?)", (1,))
        with pytest.raises(dbapi.IntegrityError) as caught:
            cur.execute(f"INSERT INTO {name} VALUES (?)", (1,))
        assert caught.value.error_name == "CONSTRAINT_VIOLATION"
        assert isinstance(caught.value.__cause__, partita.ConstraintViolationError)
        with pytest.raises(dbapi.ProgrammingError):
            cur.execute("SELEC nothing")
        with pytest.raises(dbapi.ProgrammingError):
            cur.callproc("NoSuchProcedure")
        with pytest.raises(dbapi.InterfaceError, match="parameter 1"):
            cur.execute(f"SELECT id FROM {name} WHERE id = ?", (object(),))


def test_should_refuse_misuse_clearly(server: ServerProcess) -> None:
    conn = dbapi.connect(server.address)
    cur = conn.cursor()
    with pytest.raises(dbapi.InterfaceError, match="call execute"):
        cur.fetchone()
    with pytest.raises(dbapi.InterfaceError, match="sequence"):
        cur.execute("SELECT ?", {"a": 1})
    with pytest.raises(dbapi.NotSupportedError, match="roll back"):
        conn.rollback()
    with pytest.raises(dbapi.NotSupportedError, match="autocommit"):
        conn.autocommit = False
    assert conn.autocommit is True
    cur.close()
    with pytest.raises(dbapi.InterfaceError, match="cursor is closed"):
        cur.execute("SELECT 1")
    conn.close()
    conn.close()
    with pytest.raises(dbapi.InterfaceError, match="connection is closed"):
        conn.cursor().execute("SELECT 1")
    with pytest.raises(dbapi.InterfaceError):
        conn.commit()
