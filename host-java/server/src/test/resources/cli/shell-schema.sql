-- Schema of the command-line tests: one partitioned table, SQL procedures on it.
CREATE TABLE items (
  id    BIGINT NOT NULL PRIMARY KEY,
  name  VARCHAR(40),
  price DECIMAL
);
PARTITION TABLE items ON COLUMN id;

CREATE PROCEDURE AddItem PARTITION ON TABLE items COLUMN id AS
  INSERT INTO items (id, name, price) VALUES (?, ?, ?);
CREATE PROCEDURE ItemById PARTITION ON TABLE items COLUMN id AS
  SELECT id, name, price FROM items WHERE id = ?;
