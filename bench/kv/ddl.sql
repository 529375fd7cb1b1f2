-- KV: a key-value store, one binary value per key (bench/kv/README.md).
-- Compile with:  scripts/partita compile --explain bench/kv/ddl.sql

-- One row per key, partitioned on the key: every Get and Put runs on the
-- key's partition alone. The primary key is a hash index.
CREATE TABLE store (
  key   VARCHAR(32)        NOT NULL,
  value VARBINARY(1048576),
  CONSTRAINT pk_store PRIMARY KEY (key)
);
PARTITION TABLE store ON COLUMN key;

-- Get(key): the key's value as one row (column VALUE), or no row when the
-- key was never written.
CREATE PROCEDURE Get PARTITION ON TABLE store COLUMN key PARAMETER 0 AS
  SELECT value FROM store WHERE key = ?;

-- Put(key, value): inserts the key or replaces its value; answers one row,
-- MODIFIED_TUPLES = 1.
CREATE PROCEDURE Put PARTITION ON TABLE store COLUMN key PARAMETER 0 AS
  UPSERT INTO store (key, value) VALUES (?, ?);
