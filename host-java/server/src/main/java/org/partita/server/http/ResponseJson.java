package org.partita.server.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.HexFormat;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

/**
 * Writes a {@link ClientResponse} as the HTTP API's JSON answer
 * (docs/http-api.md, "Responses"):
 *
 * <pre>{@code
 * {"status":1,"statusString":"SUCCESS","errorCode":0,"errorName":"","message":"",
 *  "appStatus":0,"appStatusMessage":"","serverMicros":12,
 *  "results":[{"columns":[{"name":"ID","type":"BIGINT"}],"data":[[1]]}]}
 * }</pre>
 *
 * Values: integers as numbers, BOOLEAN as true/false, FLOAT as a number (a
 * non-finite one, which Partita never stores, as the string "NaN",
 * "Infinity" or "-Infinity"), DECIMAL as an exact plain number at scale 12,
 * VARCHAR as a string, VARBINARY as lower-case hex, TIMESTAMP as µs since
 * the epoch, NULL as null. Stateless; reads each table's rows with its cursor,
 * so a response must be written by one thread at a time.
 */
final class ResponseJson {
  private static final HexFormat HEX = HexFormat.of();

  private ResponseJson() {}

  /** {@code response} as JSON in a new buffer from {@code alloc}; the caller owns (releases) it. */
  static ByteBuf write(ClientResponse response, ByteBufAllocator alloc) {
    final ByteBuf out = alloc.buffer();
    try (OutputStream stream = new ByteBufOutputStream(out);
        JsonGenerator json = Json.MAPPER.getFactory().createGenerator(stream, JsonEncoding.UTF8)) {
      writeResponse(json, response);
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
    return out;
  }

  private static void writeResponse(JsonGenerator json, ClientResponse response) throws IOException {
    json.writeStartObject();
    json.writeNumberField("status", response.status().wireCode());
    json.writeStringField("statusString", response.status().name());
    json.writeNumberField("errorCode", response.errorCode().getNumber());
    json.writeStringField("errorName", response.errorName());
    json.writeStringField("message", response.message());
    json.writeNumberField("appStatus", response.appStatus());
    json.writeStringField("appStatusMessage", response.appStatusMessage());
    json.writeNumberField("serverMicros", response.serverNanos() / 1000);
    json.writeArrayFieldStart("results");
    for (ResultTable table : response.results()) {
      writeTable(json, table);
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void writeTable(JsonGenerator json, ResultTable table) throws IOException {
    json.writeStartObject();
    json.writeArrayFieldStart("columns");
    for (int c = 0; c < table.columnCount(); c++) {
      json.writeStartObject();
      json.writeStringField("name", table.columnName(c));
      json.writeStringField("type", table.columnType(c).name());
      json.writeEndObject();
    }
    json.writeEndArray();
    json.writeArrayFieldStart("data");
    table.resetRowPosition();
    while (table.advanceRow()) {
      json.writeStartArray();
      for (int c = 0; c < table.columnCount(); c++) {
        writeValue(json, table, c);
      }
      json.writeEndArray();
    }
    table.resetRowPosition();
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void writeValue(JsonGenerator json, ResultTable table, int c) throws IOException {
    switch (table.columnType(c)) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> writeLong(json, table.getLong(c), table.wasNull());
      case TIMESTAMP -> writeLong(json, table.getTimestampMicros(c), table.wasNull());
      case BOOLEAN -> {
        final long v = table.getLong(c);
        if (table.wasNull()) {
          json.writeNull();
        } else {
          json.writeBoolean(v != 0);
        }
      }
      case FLOAT -> writeFloat(json, table.getDouble(c), table.wasNull());
      case DECIMAL -> {
        final BigDecimal v = table.getDecimal(c);
        if (v == null) {
          json.writeNull();
        } else {
          json.writeNumber(v.toPlainString());
        }
      }
      case VARCHAR -> json.writeString(table.getString(c));
      case VARBINARY -> {
        final byte[] v = table.getBytes(c);
        json.writeString(v == null ? null : HEX.formatHex(v));
      }
      default -> json.writeNull();
    }
  }

  private static void writeLong(JsonGenerator json, long v, boolean isNull) throws IOException {
    if (isNull) {
      json.writeNull();
    } else {
      json.writeNumber(v);
    }
  }

  private static void writeFloat(JsonGenerator json, double v, boolean isNull) throws IOException {
    if (isNull) {
      json.writeNull();
    } else if (Double.isFinite(v)) {
      json.writeNumber(v);
    } else {
      json.writeString(Double.toString(v));
    }
  }
}
