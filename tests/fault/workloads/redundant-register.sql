-- redundant-register: one value kept in several partitions (one row per
-- slot, partitioned on the slot), written by one multi-partition
-- transaction and read together (tests/fault/README.md). Each write also
-- records its value in redundant_writes, for the audit of acknowledged writes.

CREATE TABLE slots (
  slot BIGINT NOT NULL,
  val  BIGINT,
  CONSTRAINT pk_slots PRIMARY KEY (slot)
);
PARTITION TABLE slots ON COLUMN slot;

CREATE TABLE redundant_writes (
  val BIGINT NOT NULL,
  CONSTRAINT pk_redundant_writes PRIMARY KEY (val)
);
PARTITION TABLE redundant_writes ON COLUMN val;

CREATE PROCEDURE FROM CLASS org.partita.fault.procedures.RedundantWrite;
-- RedundantRead(): every slot's value, read in one transaction.
CREATE PROCEDURE RedundantRead AS
  SELECT slot, val FROM slots ORDER BY slot;
