-- A small banking schema for the integration tests: a replicated table, a
-- partitioned table, a materialized view over it, single-partition SQL
-- procedures and a multi-partition one.

-- Regions: replicated to every partition.
CREATE TABLE regions (
  region_id INTEGER     NOT NULL,
  name      VARCHAR(20) NOT NULL,
  CONSTRAINT pk_regions PRIMARY KEY (region_id)
);

-- Accounts: spread over the partitions by id.
CREATE TABLE accounts (
  id        BIGINT      NOT NULL,
  region_id INTEGER     NOT NULL,
  balance   BIGINT      NOT NULL,
  label     VARCHAR(20) NOT NULL,
  CONSTRAINT pk_accounts PRIMARY KEY (id)
);
PARTITION TABLE accounts ON COLUMN id;

-- Grouped by region, not by id: each partition holds its share of every group.
CREATE VIEW accounts_by_region (region_id, accounts, total) AS
  SELECT region_id, COUNT(*), SUM(balance) FROM accounts GROUP BY region_id;

CREATE PROCEDURE OpenAccount PARTITION ON TABLE accounts COLUMN id AS
  INSERT INTO accounts (id, region_id, balance, label) VALUES (?, ?, ?, ?);

CREATE PROCEDURE Deposit PARTITION ON TABLE accounts COLUMN id PARAMETER 1 AS
  UPDATE accounts SET balance = balance + ? WHERE id = ?;

-- Reads the replicated table on the account's partition.
CREATE PROCEDURE AccountRegion PARTITION ON TABLE accounts COLUMN id AS
  SELECT a.id, r.name FROM accounts a JOIN regions r ON r.region_id = a.region_id WHERE a.id = ?;

-- Reads only the replicated table, on the partition its parameter hashes to.
CREATE PROCEDURE RegionName PARTITION ON TABLE accounts COLUMN id AS
  SELECT name FROM regions WHERE region_id = ?;

-- Multi-partition: the view's shares merged.
CREATE PROCEDURE RegionTotals AS
  SELECT region_id, accounts, total FROM accounts_by_region ORDER BY region_id;
