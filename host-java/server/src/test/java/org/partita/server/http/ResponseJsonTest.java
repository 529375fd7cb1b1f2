package org.partita.server.http;

import org.partita.proto.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

class ResponseJsonTest {
  private static String write(ClientResponse response) {
    final ByteBuf out = ResponseJson.write(response, UnpooledByteBufAllocator.DEFAULT);
    try {
      return out.toString(StandardCharsets.UTF_8);
    } finally {
      out.release();
    }
  }

  private static ResultTable allTypes() {
    return new ResultTableBuilder()
        .column("TI", ValueType.TINYINT).column("SI", ValueType.SMALLINT).column("I", ValueType.INTEGER)
        .column("BI", ValueType.BIGINT).column("F", ValueType.FLOAT).column("D", ValueType.DECIMAL)
        .column("S", ValueType.VARCHAR).column("B", ValueType.VARBINARY).column("T", ValueType.TIMESTAMP)
        .column("BOOL", ValueType.BOOLEAN)
        .row(-1, 300, 70000, Long.MAX_VALUE, 1.5, new BigDecimal("12345678901234567890123456.000000000001"),
            "a\"b\n", new byte[] {0x0a, (byte) 0xff}, Instant.parse("2026-11-22T10:00:00.000001Z"), true)
        .row(null, null, null, null, null, null, null, null, null, null)
        .build();
  }

  @Test
  void shouldWriteEveryValueType() {
    assertEquals("{\"status\":1,\"statusString\":\"SUCCESS\",\"errorCode\":0,\"errorName\":\"\",\"message\":\"\",\"appStatus\":0,"
        + "\"appStatusMessage\":\"\",\"serverMicros\":0,\"results\":[{\"columns\":["
        + "{\"name\":\"TI\",\"type\":\"TINYINT\"},{\"name\":\"SI\",\"type\":\"SMALLINT\"},"
        + "{\"name\":\"I\",\"type\":\"INTEGER\"},{\"name\":\"BI\",\"type\":\"BIGINT\"},"
        + "{\"name\":\"F\",\"type\":\"FLOAT\"},{\"name\":\"D\",\"type\":\"DECIMAL\"},"
        + "{\"name\":\"S\",\"type\":\"VARCHAR\"},{\"name\":\"B\",\"type\":\"VARBINARY\"},"
        + "{\"name\":\"T\",\"type\":\"TIMESTAMP\"},{\"name\":\"BOOL\",\"type\":\"BOOLEAN\"}],"
        + "\"data\":[[-1,300,70000,9223372036854775807,1.5,12345678901234567890123456.000000000001,"
        + "\"a\\\"b\\n\",\"0aff\",1795341600000001,true],"
        + "[null,null,null,null,null,null,null,null,null,null]]}]}",
        write(ClientResponse.success(List.of(allTypes()))));
  }

  @Test
  void shouldWriteDecimalsAtFullScaleWithoutExponent() {
    final ResultTable t = new ResultTableBuilder().column("D", ValueType.DECIMAL)
        .row(new BigDecimal("1E+20")).row(new BigDecimal("-0.000000000001")).row(BigDecimal.ZERO).build();
    final String json = write(ClientResponse.success(List.of(t)));
    assertEquals("\"data\":[[100000000000000000000.000000000000],[-0.000000000001],[0.000000000000]]}]}",
        json.substring(json.indexOf("\"data\"")));
  }

  @Test
  void shouldWriteNonFiniteFloatsAsStrings() {
    final ResultTable t = new ResultTableBuilder().column("F", ValueType.FLOAT)
        .row(Double.NaN).row(Double.NEGATIVE_INFINITY).row(-0.0).build();
    final String json = write(ClientResponse.success(List.of(t)));
    assertEquals("\"data\":[[\"NaN\"],[\"-Infinity\"],[-0.0]]}]}", json.substring(json.indexOf("\"data\"")));
  }

  @Test
  void shouldWriteFailuresWithTheirNameMessageAndAppStatus() {
    final ClientResponse failure = ClientResponse.failure(ClientResponse.Status.GRACEFUL_FAILURE,
        ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, "duplicate key in T").withAppStatus(-3, "custom").withServerNanos(12_999);
    assertEquals("{\"status\":3,\"statusString\":\"GRACEFUL_FAILURE\",\"errorCode\":2,\"errorName\":\"CONSTRAINT_VIOLATION\","
        + "\"message\":\"duplicate key in T\",\"appStatus\":-3,\"appStatusMessage\":\"custom\",\"serverMicros\":12,"
        + "\"results\":[]}", write(failure));
  }

  @Test
  void shouldWriteSeveralTablesAndLeaveTheirCursorsAtTheStart() {
    final ResultTable a = new ResultTableBuilder().column("X", ValueType.BIGINT).row(1L).row(2L).build();
    final ResultTable b = new ResultTableBuilder().column("Y", ValueType.VARCHAR).build();
    final String json = write(ClientResponse.success(List.of(a, b)));
    assertEquals("\"results\":[{\"columns\":[{\"name\":\"X\",\"type\":\"BIGINT\"}],\"data\":[[1],[2]]},"
        + "{\"columns\":[{\"name\":\"Y\",\"type\":\"VARCHAR\"}],\"data\":[]}]}",
        json.substring(json.indexOf("\"results\"")));
    assertEquals(-1, a.activeRowIndex());
  }
}
