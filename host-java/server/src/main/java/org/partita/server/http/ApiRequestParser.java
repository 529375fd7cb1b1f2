package org.partita.server.http;

import org.partita.proto.ErrorCode;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.partita.client.ClientConfig;

/**
 * Reads the call an {@code /api/1.0/} request carries (docs/http-api.md,
 * "Requests"): {@code GET ?Procedure=..&Parameters=[..]}, the same fields in
 * an {@code application/x-www-form-urlencoded} POST body, or an
 * {@code application/json} POST body {@code {"Procedure": .., "Parameters": [..]}}.
 * Field names are case-sensitive; unknown or repeated fields are refused.
 * In query strings and forms only {@code &} separates fields ({@code ;} is text).
 * Stateless.
 */
final class ApiRequestParser {
  static final String PROCEDURE = "Procedure";
  static final String PARAMETERS = "Parameters";
  static final String TIMEOUT = "Timeout";
  private static final long MAX_TIMEOUT_MILLIS = ClientConfig.MAX_QUERY_TIMEOUT.toMillis();
  private static final Object[] NO_PARAMETERS = {};
  // Fields decoded from a query string or form; only two are valid, the rest are reported as unknown.
  private static final int MAX_FIELDS = 16;

  private ApiRequestParser() {}

  /**
   * The call {@code request} (a GET or POST) carries.
   *
   * @throws RequestException 400 for a malformed request, 415 for a POST body of another content type
   */
  static ApiCall parse(FullHttpRequest request) {
    if (request.method().equals(HttpMethod.GET)) {
      return fromFields(decode(request.uri(), true, "the query string"));
    }
    final CharSequence type = HttpUtil.getMimeType(request);
    if (type != null && HttpHeaderValues.APPLICATION_JSON.contentEqualsIgnoreCase(type)) {
      return fromJson(Json.parse(request.content(), "the body"));
    }
    if (type != null && HttpHeaderValues.APPLICATION_X_WWW_FORM_URLENCODED.contentEqualsIgnoreCase(type)) {
      return fromFields(decode(request.content().toString(StandardCharsets.UTF_8), false, "the form body"));
    }
    throw new RequestException(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, ErrorCode.ERROR_CODE_UNSUPPORTED_MEDIA_TYPE,
        "a POST body must be application/json or application/x-www-form-urlencoded, not "
            + (type == null ? "untyped (no Content-Type header)" : type));
  }

  private static Map<String, List<String>> decode(String text, boolean hasPath, String what) {
    try {
      return new QueryStringDecoder(text, StandardCharsets.UTF_8, hasPath, MAX_FIELDS, true).parameters();
    } catch (IllegalArgumentException e) {
      throw RequestException.badRequest(what + " is malformed: " + e.getMessage());
    }
  }

  private static ApiCall fromFields(Map<String, List<String>> fields) {
    for (Map.Entry<String, List<String>> field : fields.entrySet()) {
      checkKnown(field.getKey());
      if (field.getValue().size() > 1) {
        throw RequestException.badRequest(field.getKey() + " is given " + field.getValue().size() + " times");
      }
    }
    final List<String> procedure = fields.get(PROCEDURE);
    final List<String> parameters = fields.get(PARAMETERS);
    final List<String> timeout = fields.get(TIMEOUT);
    return new ApiCall(procedureName(procedure == null ? null : procedure.get(0)),
        parameters == null ? NO_PARAMETERS : JsonParameters.convert(Json.parse(parameters.get(0), PARAMETERS)),
        timeout == null ? 0 : timeoutMillis(timeout.get(0)));
  }

  private static ApiCall fromJson(JsonNode body) {
    if (!body.isObject()) {
      throw RequestException.badRequest("the body must be a JSON object {\"Procedure\": ..., \"Parameters\": [...]},"
          + " not " + JsonParameters.describe(body));
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      checkKnown(names.next());
    }
    final JsonNode procedure = body.get(PROCEDURE);
    if (procedure != null && !procedure.isTextual()) {
      throw RequestException.badRequest("Procedure must be a string, not " + JsonParameters.describe(procedure));
    }
    final JsonNode parameters = body.get(PARAMETERS);
    final JsonNode timeout = body.get(TIMEOUT);
    if (timeout != null && !timeout.isIntegralNumber()) {
      throw RequestException.badRequest("Timeout must be a whole number of milliseconds, not "
          + JsonParameters.describe(timeout));
    }
    return new ApiCall(procedureName(procedure == null ? null : procedure.textValue()),
        parameters == null ? NO_PARAMETERS : JsonParameters.convert(parameters),
        timeout == null ? 0 : timeoutMillis(timeout.asText()));
  }

  private static void checkKnown(String name) {
    if (!name.equals(PROCEDURE) && !name.equals(PARAMETERS) && !name.equals(TIMEOUT)) {
      throw RequestException.badRequest("unknown field \"" + name + "\"; expected Procedure and optionally"
          + " Parameters and Timeout (names are case-sensitive)");
    }
  }

  /** The call's time limit: whole milliseconds from 0 (the server's default) to 1 hour. */
  private static int timeoutMillis(String text) {
    final long millis;
    try {
      millis = Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw RequestException.badRequest("Timeout must be a whole number of milliseconds, not '" + text + "'");
    }
    if (millis < 0 || millis > MAX_TIMEOUT_MILLIS) {
      throw RequestException.badRequest("Timeout must be from 0 (the server's default) to " + MAX_TIMEOUT_MILLIS
          + " milliseconds (1 h), got " + text.strip());
    }
    return (int) millis;
  }

  private static String procedureName(String name) {
    if (name == null) {
      throw RequestException.badRequest("missing Procedure: name the procedure to call");
    }
    if (name.isBlank()) {
      throw RequestException.badRequest("Procedure is empty: name the procedure to call");
    }
    return name;
  }
}
