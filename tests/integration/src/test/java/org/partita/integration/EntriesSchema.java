package org.partita.integration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The schema the de-duplication tests write with (docs/cluster.md, "Client
 * de-duplication"): a partitioned table without a key, so a call that runs
 * twice leaves two rows; {@code AddEntry(k, note)} inserts one and
 * {@code CountEntries(k)} counts the rows of k. Stateless.
 */
final class EntriesSchema {
  static final String DDL = """
      CREATE TABLE entries (k BIGINT NOT NULL, note VARCHAR(32));
      PARTITION TABLE entries ON COLUMN k;
      CREATE PROCEDURE AddEntry PARTITION ON TABLE entries COLUMN k PARAMETER 0
        AS INSERT INTO entries (k, note) VALUES (?, ?);
      CREATE PROCEDURE CountEntries PARTITION ON TABLE entries COLUMN k PARAMETER 0
        AS SELECT COUNT(*) FROM entries WHERE k = ?;
      """;

  private EntriesSchema() {
  }

  /** Writes the schema as {@code entries.sql} in {@code dir}; its path. */
  static Path writeTo(Path dir) throws IOException {
    final Path ddl = dir.resolve("entries.sql");
    Files.writeString(ddl, DDL);
    return ddl;
  }
}
