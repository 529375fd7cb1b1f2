-- bank: accounts across partitions, money moved by multi-partition
-- transfers (tests/fault/README.md). Each committed transfer also leaves its
-- id in transfers, in the same transaction: the audit of acknowledged
-- transfers reads it.

CREATE TABLE accounts (
  id      BIGINT NOT NULL,
  balance BIGINT NOT NULL,
  CONSTRAINT pk_accounts PRIMARY KEY (id)
);
PARTITION TABLE accounts ON COLUMN id;

CREATE TABLE transfers (
  id      BIGINT NOT NULL,
  from_id BIGINT NOT NULL,
  to_id   BIGINT NOT NULL,
  amount  BIGINT NOT NULL,
  CONSTRAINT pk_transfers PRIMARY KEY (id)
);
PARTITION TABLE transfers ON COLUMN id;

CREATE PROCEDURE FROM CLASS org.partita.fault.procedures.BankTransfer;
-- BankRead(): every account's balance, read in one transaction.
CREATE PROCEDURE BankRead AS
  SELECT id, balance FROM accounts ORDER BY id;
