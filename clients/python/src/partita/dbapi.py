"""A PEP 249 (DB-API 2.0) module over the synchronous client, for tools that
expect one (pandas ``read_sql``, notebooks, SQLAlchemy-style code).

    import partita.dbapi
    conn = partita.dbapi.connect("127.0.0.1:21212")
    cur = conn.cursor()
    cur.execute("SELECT contestant_name FROM contestants WHERE contestant_number = ?", (3,))
    cur.fetchone()
    cur.callproc("Vote", (6175551234, 3, 2))

- ``paramstyle`` is ``qmark``; ``execute`` sends the statement and its
  parameters to ``@AdHoc`` (the server binds them: no quoting here).
- Every statement and every procedure call is its own transaction, committed
  when it returns (autocommit). ``commit()`` does nothing; ``rollback()``
  and ``autocommit = False`` raise NotSupportedError: put statements that
  must commit together in a stored procedure.
- ``callproc`` runs a procedure; its first table is the cursor's result
  set, ``nextset()`` moves to the next.
- ``rowcount``: rows of a query, or the rows changed by DML
  (``modified_tuples``); -1 when unknown.
- Errors are the PEP 249 classes below, with the client's exception as
  ``__cause__`` and its ``error_name``/``error_code`` copied when the server
  answered.

Thread model: ``threadsafety = 2`` — threads may share the module and
connections (the client underneath is thread-safe) but not cursors.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Iterator, Sequence

from . import errors as _errors
from .config import ClientConfig
from .result_table import ResultTable
from .sync import Client
from .values import ParameterError, ValueType, check_parameters

apilevel = "2.0"
threadsafety = 2
paramstyle = "qmark"


# ---- exceptions (PEP 249) ----

class Warning(Exception):  # noqa: A001 - the name PEP 249 requires
    """Important warnings (none are raised today)."""


class Error(Exception):
    """The base of every DB-API error. ``error_name``/``error_code`` are the
    server's when it answered, else empty/0."""

    error_name: str = ""
    error_code: int = 0


class InterfaceError(Error):
    """Misuse of this module: a closed cursor or connection, fetch without a
    result set, parameters of a type the client cannot send."""


class DatabaseError(Error):
    """An error of the database."""


class DataError(DatabaseError):
    """A value out of range, too long, not convertible; division by zero."""


class OperationalError(DatabaseError):
    """The connection dropped, a call timed out, the server is shutting
    down, busy or unavailable."""


class IntegrityError(DatabaseError):
    """A unique key or NOT NULL constraint refused a write."""


class InternalError(DatabaseError):
    """A fault inside the server."""


class ProgrammingError(DatabaseError):
    """SQL that does not parse or plan, an unknown procedure or table, wrong
    parameter count or types."""


class NotSupportedError(DatabaseError):
    """Something Partita does not do: rollback, autocommit off."""


_BY_CLIENT_ERROR: list[tuple[type[Exception], type[Error]]] = [
    (_errors.ConstraintViolationError, IntegrityError),
    (_errors.DataError, DataError),
    (_errors.SqlError, ProgrammingError),
    (_errors.BadParameterError, ProgrammingError),
    (_errors.ProcedureNotFoundError, ProgrammingError),
    (_errors.UserAbortError, DatabaseError),
    (_errors.TransactionTimeoutError, OperationalError),
    (_errors.ServerUnavailableError, OperationalError),
    (_errors.OutcomeUnknownError, OperationalError),
    (_errors.ServerInternalError, InternalError),
    (_errors.ProcedureError, DatabaseError),
    (ParameterError, InterfaceError),
    (_errors.ClientClosedError, InterfaceError),
    (_errors.FrameTooLargeError, DataError),
    (_errors.ResultFormatError, InternalError),
    (_errors.ClientError, OperationalError),
]


def _translate(error: Exception) -> Error:
    for source, target in _BY_CLIENT_ERROR:
        if isinstance(error, source):
            translated = target(str(error))
            if isinstance(error, _errors.ProcedureError):
                translated.error_name = error.error_name
                translated.error_code = error.error_code
            return translated
    return InterfaceError(str(error))


# ---- type objects and constructors (PEP 249) ----

class _TypeSet(frozenset):  # type: ignore[type-arg]
    """A type object: equal to every value-type code it names."""

    def __eq__(self, other: object) -> bool:
        return other in self if isinstance(other, int) else frozenset.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return frozenset.__hash__(self)


STRING = _TypeSet({ValueType.VARCHAR})
BINARY = _TypeSet({ValueType.VARBINARY})
NUMBER = _TypeSet({ValueType.TINYINT, ValueType.SMALLINT, ValueType.INTEGER, ValueType.BIGINT, ValueType.FLOAT,
                   ValueType.DECIMAL, ValueType.BOOLEAN})
DATETIME = _TypeSet({ValueType.TIMESTAMP})
ROWID = _TypeSet()


def Timestamp(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> _dt.datetime:
    """A TIMESTAMP parameter (UTC)."""
    return _dt.datetime(year, month, day, hour, minute, second, tzinfo=_dt.timezone.utc)


def TimestampFromTicks(ticks: float) -> _dt.datetime:
    return _dt.datetime.fromtimestamp(ticks, _dt.timezone.utc)


def Binary(data: bytes) -> bytes:
    return bytes(data)


def Date(year: int, month: int, day: int) -> _dt.datetime:
    """Partita has no DATE type: midnight UTC as a TIMESTAMP."""
    return Timestamp(year, month, day)


def DateFromTicks(ticks: float) -> _dt.datetime:
    return TimestampFromTicks(ticks - ticks % 86400)


def Time(hour: int, minute: int, second: int) -> Any:
    raise NotSupportedError("Partita has no TIME type; use a TIMESTAMP")


def TimeFromTicks(ticks: float) -> Any:
    raise NotSupportedError("Partita has no TIME type; use a TIMESTAMP")


_MODIFIED = "modified_tuples"


# ---- connection and cursor ----

class Connection:
    """A DB-API connection: one synchronous client (its own connections)."""

    Warning = Warning
    Error = Error
    InterfaceError = InterfaceError
    DatabaseError = DatabaseError
    DataError = DataError
    OperationalError = OperationalError
    IntegrityError = IntegrityError
    InternalError = InternalError
    ProgrammingError = ProgrammingError
    NotSupportedError = NotSupportedError

    def __init__(self, client: Client) -> None:
        self._client: Client | None = client

    @property
    def client(self) -> Client:
        """The synchronous client underneath (for asynchronous calls)."""
        if self._client is None:
            raise InterfaceError("the connection is closed")
        return self._client

    @property
    def autocommit(self) -> bool:
        return True

    @autocommit.setter
    def autocommit(self, value: bool) -> None:
        if not value:
            raise NotSupportedError("Partita commits every statement and procedure call as its own transaction; "
                                    "autocommit cannot be turned off (use a stored procedure for several statements)")

    def cursor(self) -> Cursor:
        return Cursor(self)

    def commit(self) -> None:
        """Nothing to do: every call committed when it returned."""
        self.client  # raises on a closed connection

    def rollback(self) -> None:
        self.client
        raise NotSupportedError("Partita has no open transaction to roll back: every statement and procedure call "
                                "committed (or rolled back by itself) when it returned")

    def close(self) -> None:
        """Closes the client. Idempotent."""
        if self._client is not None:
            self._client.close()
            self._client = None

    @property
    def closed(self) -> bool:
        return self._client is None

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Cursor:
    """A DB-API cursor. Not thread-safe."""

    arraysize = 1

    def __init__(self, connection: Connection) -> None:
        self.connection: Connection | None = connection
        self._tables: list[ResultTable] = []
        self._table = 0
        self._row = 0
        self._has_result = False
        self.rowcount = -1
        self.description: list[tuple[Any, ...]] | None = None
        self.lastrowid = None

    def _client(self) -> Client:
        if self.connection is None:
            raise InterfaceError("the cursor is closed")
        return self.connection.client

    def _call(self, procedure: str, params: Sequence[Any]) -> None:
        client = self._client()
        try:
            response = client.call(procedure, list(params))
        except _errors.PartitaError as e:
            raise _translate(e) from e
        self._set(response.results)

    def _set(self, tables: list[ResultTable]) -> None:
        self._tables = tables
        self._table = 0
        self._has_result = True
        self._select(0)

    def _select(self, index: int) -> None:
        self._table = index
        self._row = 0
        if index >= len(self._tables):
            self.description = None
            self.rowcount = -1
            return
        table = self._tables[index]
        if len(table.columns) == 1 and table.columns[0].name.lower() == _MODIFIED and len(table.rows) == 1:
            self.description = None
            self.rowcount = int(table.rows[0][0])
            self._tables = self._tables[:index] + [ResultTable((), [])] + self._tables[index + 1 :]
            return
        self.description = [(c.name, int(c.type), None, None, None, None, None) for c in table.columns]
        self.rowcount = len(table.rows)

    @staticmethod
    def _params(parameters: Any) -> Sequence[Any]:
        if parameters is None:
            return ()
        if isinstance(parameters, (str, bytes, dict)) or not isinstance(parameters, Sequence):
            raise InterfaceError(f"parameters must be a sequence (paramstyle qmark), got {type(parameters).__name__}")
        return parameters

    def execute(self, operation: str, parameters: Sequence[Any] | None = None) -> Cursor:
        """Runs one SQL statement through @AdHoc with ``?`` parameters."""
        if not isinstance(operation, str):
            raise InterfaceError(f"the operation must be SQL text, got {type(operation).__name__}")
        params = self._params(parameters)
        try:
            check_parameters(params)
        except ParameterError as e:
            raise InterfaceError(str(e)) from e
        self._call("@AdHoc", [operation, *params])
        return self

    def executemany(self, operation: str, seq_of_parameters: Sequence[Sequence[Any]]) -> Cursor:
        """Runs the statement once per parameter sequence, in order, each its
        own transaction (not atomic as a whole); ``rowcount`` is the total
        of rows changed."""
        total = 0
        for parameters in seq_of_parameters:
            self.execute(operation, parameters)
            total += max(self.rowcount, 0)
        self.rowcount = total
        self.description = None
        self._tables = []
        return self

    def callproc(self, procname: str, parameters: Sequence[Any] | None = None) -> Sequence[Any]:
        """Calls a stored procedure; its first table becomes the result set.
        Returns the parameters unchanged (Partita has no OUT parameters)."""
        if not isinstance(procname, str) or not procname:
            raise InterfaceError(f"the procedure name must be a non-empty str, got {procname!r}")
        params = self._params(parameters)
        self._call(procname, params)
        return params

    def _current(self) -> ResultTable:
        self._client()
        if not self._has_result:
            raise InterfaceError("no result set: call execute() or callproc() first")
        if self._table >= len(self._tables) or self.description is None:
            raise InterfaceError("the last statement produced no rows to fetch")
        return self._tables[self._table]

    def fetchone(self) -> tuple[Any, ...] | None:
        table = self._current()
        if self._row >= len(table.rows):
            return None
        self._row += 1
        return table.rows[self._row - 1]

    def fetchmany(self, size: int | None = None) -> list[tuple[Any, ...]]:
        table = self._current()
        n = self.arraysize if size is None else size
        if n < 0:
            raise InterfaceError(f"fetchmany size must be 0 or more, got {n}")
        rows = table.rows[self._row : self._row + n]
        self._row += len(rows)
        return rows

    def fetchall(self) -> list[tuple[Any, ...]]:
        table = self._current()
        rows = table.rows[self._row :]
        self._row = len(table.rows)
        return rows

    def nextset(self) -> bool | None:
        """Moves to the next result table; None when there is none."""
        self._client()
        if not self._has_result:
            raise InterfaceError("no result set: call execute() or callproc() first")
        if self._table + 1 >= len(self._tables):
            self._select(len(self._tables))
            return None
        self._select(self._table + 1)
        return True

    def setinputsizes(self, sizes: Any) -> None:
        """Accepted and ignored (PEP 249 allows it)."""

    def setoutputsize(self, size: Any, column: Any = None) -> None:
        """Accepted and ignored (PEP 249 allows it)."""

    def close(self) -> None:
        self.connection = None
        self._tables = []

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        while (row := self.fetchone()) is not None:
            yield row

    def __enter__(self) -> Cursor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(*servers: str, config: ClientConfig | None = None, **settings: Any) -> Connection:
    """A DB-API connection to ``servers`` (``host[:port]``, default
    ``127.0.0.1:21212``); ``settings`` are ClientConfig fields. Raises
    OperationalError when no server can be reached, InterfaceError for a
    malformed address."""
    try:
        from .sync import connect as _connect
        return Connection(_connect(*servers, config=config, **settings))
    except ValueError as e:
        raise InterfaceError(str(e)) from e
    except _errors.PartitaError as e:
        raise _translate(e) from e


