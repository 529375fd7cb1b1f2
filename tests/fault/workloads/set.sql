-- set and dirty-read: unique inserts read back (tests/fault/README.md).
-- Each element lives in bucket val mod 32, the partitioning column, so the
-- set can be read one bucket at a time by single-partition procedures (a
-- cluster refuses reads of every partition before docs/cluster.md
-- milestone 6).

CREATE TABLE elements (
  bucket BIGINT NOT NULL,
  val    BIGINT NOT NULL,
  CONSTRAINT pk_elements PRIMARY KEY (bucket, val)
);
PARTITION TABLE elements ON COLUMN bucket;

-- SetAdd(bucket, val): inserts one element (bucket = val mod 32); each value is added once in a run.
CREATE PROCEDURE SetAdd PARTITION ON TABLE elements COLUMN bucket PARAMETER 0 AS
  INSERT INTO elements (bucket, val) VALUES (?, ?);
-- SetRead(): every element, from every partition, in one transaction (one host only).
CREATE PROCEDURE SetRead AS
  SELECT val FROM elements ORDER BY val;
-- SetReadBucket(bucket): the elements of one bucket.
CREATE PROCEDURE SetReadBucket PARTITION ON TABLE elements COLUMN bucket PARAMETER 0 AS
  SELECT val FROM elements WHERE bucket = ? ORDER BY val;
