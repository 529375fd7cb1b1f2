-- The multi-partition transfer of the bank schema (bank.sql), a Java
-- procedure of the integration tests' classes.
CREATE PROCEDURE FROM CLASS org.partita.integration.procs.Transfer;
