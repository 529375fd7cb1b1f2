-- The schema of SecurityTest and TlsTest: accounts, two procedures, a role.
CREATE TABLE accounts (id INTEGER NOT NULL PRIMARY KEY, balance BIGINT NOT NULL);
CREATE PROCEDURE Deposit AS UPDATE accounts SET balance = balance + ? WHERE id = ?;
CREATE PROCEDURE Balance AS SELECT balance FROM accounts WHERE id = ?;
CREATE ROLE teller WITH SQLREAD;
GRANT EXECUTE ON PROCEDURE Deposit TO teller;
