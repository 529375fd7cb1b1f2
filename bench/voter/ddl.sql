-- Voter: a TV talent show's phone-in votes (DESIGN.md, "The reference workloads").
-- Compile with:  scripts/partita compile --classes <procedures jar> bench/voter/ddl.sql

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

-- Votes per phone number: how Vote enforces the per-phone limit.
CREATE VIEW v_votes_by_phone_number (phone_number, num_votes) AS
  SELECT phone_number, COUNT(*) FROM votes GROUP BY phone_number;

-- Votes per contestant and state: the standings and the heat map.
CREATE VIEW v_votes_by_contestant_number_state (contestant_number, state, num_votes) AS
  SELECT contestant_number, state, COUNT(*) FROM votes GROUP BY contestant_number, state;

CREATE PROCEDURE PARTITION ON TABLE votes COLUMN phone_number PARAMETER 0
  FROM CLASS org.partita.bench.voter.Vote;
CREATE PROCEDURE FROM CLASS org.partita.bench.voter.Initialize;
CREATE PROCEDURE FROM CLASS org.partita.bench.voter.Results;
CREATE PROCEDURE FROM CLASS org.partita.bench.voter.GetStateHeatmap;
CREATE PROCEDURE FROM CLASS org.partita.bench.voter.ContestantWinningStates;
