-- Voter for a program that embeds the engine (examples/embedding/): the
-- tables and views of bench/voter/ddl.sql, and every statement the program
-- runs as a single-statement procedure, so that the whole workload compiles
-- without Java classes:
--   scripts/partita compile examples/embedding/voter.sql -o voter.catalog

-- The contestants; replicated to every partition.
CREATE TABLE contestants (
  contestant_number INTEGER     NOT NULL,
  contestant_name   VARCHAR(50) NOT NULL,
  CONSTRAINT pk_contestants PRIMARY KEY (contestant_number)
);

-- US area codes and their states; replicated.
CREATE TABLE area_code_state (
  area_code SMALLINT   NOT NULL,
  state     VARCHAR(2) NOT NULL,
  CONSTRAINT pk_area_code_state PRIMARY KEY (area_code)
);

-- One row per accepted vote, partitioned on the voter's phone number.
CREATE TABLE votes (
  phone_number      BIGINT     NOT NULL,
  state             VARCHAR(2) NOT NULL,
  contestant_number INTEGER    NOT NULL
);
PARTITION TABLE votes ON COLUMN phone_number;

-- Votes per phone number: how a vote is checked against the limit.
CREATE VIEW v_votes_by_phone_number (phone_number, num_votes) AS
  SELECT phone_number, COUNT(*) FROM votes GROUP BY phone_number;

-- Votes per contestant and state: the standings.
CREATE VIEW v_votes_by_contestant_number_state (contestant_number, state, num_votes) AS
  SELECT contestant_number, state, COUNT(*) FROM votes GROUP BY contestant_number, state;

-- Loading the replicated tables (run on every partition).
CREATE PROCEDURE AddContestant AS
  INSERT INTO contestants (contestant_number, contestant_name) VALUES (?, ?);
CREATE PROCEDURE AddAreaCode AS
  INSERT INTO area_code_state (area_code, state) VALUES (?, ?);

-- The Vote transaction's statements, in the order it runs them.
CREATE PROCEDURE FindContestant AS
  SELECT contestant_number FROM contestants WHERE contestant_number = ?;
CREATE PROCEDURE CountVotes PARTITION ON TABLE votes COLUMN phone_number AS
  SELECT num_votes FROM v_votes_by_phone_number WHERE phone_number = ?;
CREATE PROCEDURE StateOfAreaCode AS
  SELECT state FROM area_code_state WHERE area_code = ?;
CREATE PROCEDURE InsertVote PARTITION ON TABLE votes COLUMN phone_number AS
  INSERT INTO votes (phone_number, state, contestant_number) VALUES (?, ?, ?);

-- One contestant's votes in one partition's share of the view.
CREATE PROCEDURE ContestantVotes AS
  SELECT SUM(num_votes) FROM v_votes_by_contestant_number_state WHERE contestant_number = ?;
