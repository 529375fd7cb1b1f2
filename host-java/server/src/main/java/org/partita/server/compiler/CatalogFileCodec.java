package org.partita.server.compiler;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.partita.proto.CatalogFile;
import org.partita.proto.Distribution;
import org.partita.proto.Procedure;
import org.partita.proto.ProcedureStatement;
import org.partita.server.planner.Fragment;

/**
 * The catalog file that {@code partita compile} writes and programs embedding
 * the engine load (docs/embedding.md, "The catalog file"; the C++ reader is
 * {@code partita::CatalogFile}). Little-endian:
 * <pre>
 *   magic          16 bytes, "PARTITA CATALOG\n"
 *   format_version u32, {@link #FORMAT_VERSION}
 *   payload_size   u64, bytes after this field
 *   payload        a CatalogFile message (proto/catalog.proto)
 * </pre>
 * Stateless; safe from any thread.
 */
public final class CatalogFileCodec {
  /** The bytes every catalog file starts with. */
  public static final byte[] MAGIC = "PARTITA CATALOG\n".getBytes(StandardCharsets.US_ASCII);
  /** The format this release writes and its engine reads. */
  public static final int FORMAT_VERSION = 1;
  /** Bytes before the payload. */
  public static final int HEADER_SIZE = MAGIC.length + Integer.BYTES + Long.BYTES;

  private CatalogFileCodec() {}

  /** The catalog file of {@code catalog}: header and CatalogFile message. */
  public static byte[] encode(CompiledCatalog catalog) {
    final byte[] payload = toMessage(catalog).toByteArray();
    final ByteBuffer file = ByteBuffer.allocate(HEADER_SIZE + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    file.put(MAGIC).putInt(FORMAT_VERSION).putLong(payload.length).put(payload);
    return file.array();
  }

  /**
   * Reads a catalog file's message.
   *
   * @throws IllegalArgumentException naming what is wrong: not a catalog file, another format version,
   *     a size that disagrees with the header, or a malformed payload
   */
  public static CatalogFile decode(byte[] file) {
    if (file.length < MAGIC.length || !Arrays.equals(file, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IllegalArgumentException("not a Partita catalog file (it does not start with \"PARTITA CATALOG\")");
    }
    if (file.length < HEADER_SIZE) {
      throw new IllegalArgumentException("truncated catalog file: " + file.length + " bytes, shorter than its header");
    }
    final ByteBuffer header = ByteBuffer.wrap(file, MAGIC.length, HEADER_SIZE - MAGIC.length)
        .order(ByteOrder.LITTLE_ENDIAN);
    final int version = header.getInt();
    if (version != FORMAT_VERSION) {
      throw new IllegalArgumentException("catalog file format version " + Integer.toUnsignedString(version)
          + " is not supported: this release reads version " + FORMAT_VERSION);
    }
    final long size = header.getLong();
    if (size != file.length - HEADER_SIZE) {
      throw new IllegalArgumentException("catalog file header announces " + size + " payload bytes, the file holds "
          + (file.length - HEADER_SIZE));
    }
    try {
      return CatalogFile.parseFrom(ByteBuffer.wrap(file, HEADER_SIZE, file.length - HEADER_SIZE));
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("malformed catalog file payload: " + e.getMessage(), e);
    }
  }

  static CatalogFile toMessage(CompiledCatalog catalog) {
    final String version = CatalogFileCodec.class.getPackage().getImplementationVersion();
    final CatalogFile.Builder file = CatalogFile.newBuilder()
        .setCompilerVersion(version == null ? "" : version)
        .setCatalog(catalog.engineCatalog());
    for (ProcedureDeclaration d : catalog.declarations()) {
      catalog.procedure(d.name()).ifPresent(p -> file.addProcedures(toProto(p)));
    }
    return file.build();
  }

  private static Procedure toProto(CompiledProcedure p) {
    final Procedure.Builder proto = Procedure.newBuilder()
        .setName(p.name())
        .setSingleStatement(p.isSql())
        .setClassName(p.isSql() ? "" : p.procedureClass().getName())
        .setSinglePartition(p.singlePartition());
    p.statements().values().forEach(s -> proto.addStatements(toProto(s)));
    if (p.singlePartition()) {
      proto.setPartitionParameter(p.partition().parameterIndex())
          .setPartitionTable(p.partition().table())
          .setPartitionColumn(p.partition().column())
          .setPartitionType(p.partition().columnType());
    }
    return proto.build();
  }

  private static ProcedureStatement toProto(CompiledStatement s) {
    final ProcedureStatement.Builder proto = ProcedureStatement.newBuilder()
        .setName(s.name())
        .setDistribution(Distribution.valueOf("DISTRIBUTION_" + s.planned().distribution().name()));
    for (Fragment f : s.planned().fragments()) {
      proto.addFragments(org.partita.proto.Fragment.newBuilder()
          .setName(s.name() + "#" + f.dependencyId())
          .setDependencyId(f.dependencyId()));
    }
    return proto.build();
  }
}
