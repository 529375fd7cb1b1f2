-- flood: an unrelated table the flood-minority nemesis fills with writes on
-- a minority of hosts before it cuts them off (Jepsen's VoltDB cycle,
-- tests/fault/README.md). Loaded beside the workload's schema on a cluster.

CREATE TABLE flood (
  id     BIGINT NOT NULL,
  filler VARCHAR(64) NOT NULL,
  CONSTRAINT pk_flood PRIMARY KEY (id)
);
PARTITION TABLE flood ON COLUMN id;

-- FloodInsert(id, filler): one row; ids are unique within a fault.
CREATE PROCEDURE FloodInsert PARTITION ON TABLE flood COLUMN id PARAMETER 0 AS
  INSERT INTO flood (id, filler) VALUES (?, ?);
