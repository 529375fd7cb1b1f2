-- register: per-key read / write / compare-and-set registers (tests/fault/README.md).
-- Every write and successful CAS also records (id, val) in register_writes,
-- in the same transaction: the audit of acknowledged writes reads it.

CREATE TABLE registers (
  id  BIGINT NOT NULL,
  val BIGINT NOT NULL,
  CONSTRAINT pk_registers PRIMARY KEY (id)
);
PARTITION TABLE registers ON COLUMN id;

CREATE TABLE register_writes (
  id  BIGINT NOT NULL,
  val BIGINT NOT NULL,
  CONSTRAINT pk_register_writes PRIMARY KEY (id, val)
);
PARTITION TABLE register_writes ON COLUMN id;

-- RegisterRead(id): the register's value as one row, or no row when never written.
CREATE PROCEDURE RegisterRead PARTITION ON TABLE registers COLUMN id PARAMETER 0 AS
  SELECT val FROM registers WHERE id = ?;
CREATE PROCEDURE PARTITION ON TABLE registers COLUMN id PARAMETER 0
  FROM CLASS org.partita.fault.procedures.RegisterWrite;
CREATE PROCEDURE PARTITION ON TABLE registers COLUMN id PARAMETER 0
  FROM CLASS org.partita.fault.procedures.RegisterCas;
-- RegisterWrites(id): every value written to the register (the audit and the state, one key at a time,
-- so they stay single-partition on a cluster).
CREATE PROCEDURE RegisterWrites PARTITION ON TABLE register_writes COLUMN id PARAMETER 0 AS
  SELECT val FROM register_writes WHERE id = ? ORDER BY val;
