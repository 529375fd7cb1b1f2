package org.partita.server.durability;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A snapshot's {@code schema-changes.bin} (docs/durability.md, "Files on
 * disk"): the DDL that made catalog versions 2 .. the snapshot's version,
 * oldest first, so that recovery rebuilds the catalog the snapshot was
 * taken with from the starting schema. Layout, big-endian: the 8 bytes
 * {@code PDDL0001}, a u32 count, then per change a u32 length and that many
 * bytes of UTF-8 DDL text. The manifest holds the file's CRC32C.
 *
 * <p>Stateless; thread-safe.
 */
public final class SchemaChangesFile {
  /** The file's name in a snapshot directory. */
  public static final String NAME = "schema-changes.bin";
  private static final byte[] MAGIC = "PDDL0001".getBytes(StandardCharsets.US_ASCII);

  private SchemaChangesFile() {}

  /** The file's bytes for {@code changes}. */
  public static byte[] encode(List<String> changes) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeInt(changes.size());
      for (String change : changes) {
        final byte[] text = change.getBytes(StandardCharsets.UTF_8);
        out.writeInt(text.length);
        out.write(text);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);  // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Reads the schema changes of {@code file}.
   *
   * @throws SnapshotCorruptException naming the file when it is not in this layout
   */
  public static List<String> read(Path file) throws IOException, SnapshotCorruptException {
    return decode(file, Files.readAllBytes(file));
  }

  static List<String> decode(Path file, byte[] bytes) throws SnapshotCorruptException {
    final ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      final byte[] magic = new byte[MAGIC.length];
      in.get(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new SnapshotCorruptException(file, "not a schema changes file (its first bytes are not PDDL0001)");
      }
      final int count = in.getInt();
      if (count < 0 || count > in.remaining() / Integer.BYTES) {
        throw new SnapshotCorruptException(file, "it claims " + count + " schema change(s) in "
            + bytes.length + " bytes");
      }
      final List<String> changes = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        final int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
          throw new SnapshotCorruptException(file, "schema change " + (i + 1) + " at offset " + (in.position() - 4)
              + " claims " + length + " bytes, " + in.remaining() + " remain");
        }
        final ByteBuffer text = in.slice(in.position(), length);
        in.position(in.position() + length);
        changes.add(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(text).toString());
      }
      if (in.hasRemaining()) {
        throw new SnapshotCorruptException(file, in.remaining() + " byte(s) after the last schema change");
      }
      return changes;
    } catch (BufferUnderflowException e) {
      throw new SnapshotCorruptException(file, "it ends in the middle of a field (" + bytes.length + " bytes)");
    } catch (CharacterCodingException e) {
      throw new SnapshotCorruptException(file, "a schema change is not UTF-8 text");
    }
  }
}
