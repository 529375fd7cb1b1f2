-- Added to the Voter schema by QueryLimitsTest: a procedure that votes, then never finishes.
CREATE PROCEDURE PARTITION ON TABLE votes COLUMN phone_number PARAMETER 0
  FROM CLASS org.partita.integration.procs.VoteThenJoinForever;
