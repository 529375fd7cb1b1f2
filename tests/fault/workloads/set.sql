-- set and dirty-read: unique inserts read back (tests/fault/README.md).

CREATE TABLE elements (
  val BIGINT NOT NULL,
  CONSTRAINT pk_elements PRIMARY KEY (val)
);
PARTITION TABLE elements ON COLUMN val;

-- SetAdd(val): inserts one element; each value is added once in a run.
CREATE PROCEDURE SetAdd PARTITION ON TABLE elements COLUMN val PARAMETER 0 AS
  INSERT INTO elements (val) VALUES (?);
-- SetRead(): every element, from every partition.
CREATE PROCEDURE SetRead AS
  SELECT val FROM elements ORDER BY val;
