package org.partita.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The JSON reader and writer configuration shared by the HTTP API: numbers
 * with a fraction or exponent read as exact BigDecimal (never double),
 * duplicate keys and trailing content rejected, NaN and Infinity not
 * accepted. Thread-safe (the mapper is immutable after construction).
 */
final class Json {
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .build();

  private Json() {}

  /**
   * Parses {@code bytes} (UTF-8, or UTF-16/32 with a byte order mark) as one JSON value.
   *
   * @param what names the text in messages ("the body", "Parameters")
   * @throws RequestException (400) naming the line and column of the first problem
   */
  static JsonNode parse(ByteBuf bytes, String what) {
    try (InputStream in = new ByteBufInputStream(bytes.duplicate())) {
      return checkPresent(MAPPER.readTree(in), what);
    } catch (JsonProcessingException e) {
      throw syntaxError(e, what);
    } catch (IOException e) {
      throw RequestException.badRequest(what + " could not be read: " + e.getMessage());
    }
  }

  /** Parses {@code text} as one JSON value; errors as for {@link #parse(ByteBuf, String)}. */
  static JsonNode parse(String text, String what) {
    try {
      return checkPresent(MAPPER.readTree(text), what);
    } catch (JsonProcessingException e) {
      throw syntaxError(e, what);
    }
  }

  private static JsonNode checkPresent(JsonNode node, String what) {
    if (node == null || node.isMissingNode()) {
      throw RequestException.badRequest(what + " is empty; expected a JSON value");
    }
    return node;
  }

  private static RequestException syntaxError(JsonProcessingException e, String what) {
    final JsonLocation at = e.getLocation();
    final String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    return RequestException.badRequest(what + " is not valid JSON" + where + ": " + e.getOriginalMessage());
  }
}
