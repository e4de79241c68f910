package dev.omcp.core.mcp;

import dev.omcp.sdk.json.Jsonp;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;

/** JSON-RPC 2.0 codes and message builders. */
public final class JsonRpc {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined server error: the session is unknown (MCP convention). */
    public static final int SESSION_NOT_FOUND = -32001;
    /** Implementation-defined server error: the request was cancelled or refused by policy. */
    public static final int REQUEST_REFUSED = -32002;
    /** MCP: a resource URI names nothing this server serves. */
    public static final int RESOURCE_NOT_FOUND = -32002;

    private JsonRpc() {}

    /**
     * Whether {@code id} may identify a request: a string or an integer (MCP "Messages": requests
     * MUST include a string or integer id, never null). A number whose value is an integer counts
     * however it is written ({@code 1.0}, {@code 1e2}): a JavaScript client, the official SDK's
     * included, reads those as integers, so refusing them would refuse what those servers serve.
     * A fraction ({@code 1.5}) is refused; JSON-RPC 2.0 itself asks for no fractional parts.
     */
    static boolean isRequestId(JsonValue id) {
        if (id instanceof JsonString) {
            return true;
        }
        if (!(id instanceof JsonNumber number)) {
            return false;
        }
        if (number.isIntegral()) {
            return true;
        }
        BigDecimal value = number.bigDecimalValue();
        return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    }

    /**
     * Whether two ids name the same request: strings by their text, numbers by their value, so
     * {@code 100}, {@code 1e2} and {@code 100.0} are one id (JSON has one number type, and the
     * gateway takes each of them as the integer 100). A string never equals a number: {@code "5"} is
     * not {@code 5}. Parsson's {@code JsonNumber.equals} compares scales as well, which would tell
     * {@code 1e2} from {@code 100}.
     */
    static boolean sameId(JsonValue one, JsonValue other) {
        if (one instanceof JsonNumber a && other instanceof JsonNumber b) {
            return a.bigDecimalValue().compareTo(b.bigDecimalValue()) == 0;
        }
        return one instanceof JsonString && one.equals(other);
    }

    /** A JSON-RPC error response; {@code id} is {@link JsonValue#NULL} when it is unknown. */
    public static JsonObject error(JsonValue id, int code, String message) {
        return Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", id)
                .add("error", Jsonp.object().add("code", code).add("message", message))
                .build();
    }

    /** A JSON-RPC error response with a {@code data} member. */
    public static JsonObject error(JsonValue id, int code, String message, JsonValue data) {
        JsonObjectBuilder err = Jsonp.object().add("code", code).add("message", message);
        if (data != null) {
            err.add("data", data);
        }
        return Jsonp.object().add("jsonrpc", "2.0").add("id", id).add("error", err).build();
    }

    /** A JSON-RPC notification. */
    public static JsonObject notification(String method, JsonObject params) {
        return Jsonp.object().add("jsonrpc", "2.0").add("method", method).add("params", params).build();
    }

    /** A JSON-RPC request sent by the server. */
    public static JsonObject request(String id, String method, JsonObject params) {
        return Jsonp.object()
                .add("jsonrpc", "2.0")
                .add("id", id)
                .add("method", method)
                .add("params", params)
                .build();
    }

    /** Serializes a successful response around an already serialized result. */
    static String resultMessage(JsonValue id, String resultJson) {
        String idJson = id.toString();
        StringBuilder out = new StringBuilder(resultJson.length() + idJson.length() + 32);
        return out.append("{\"jsonrpc\":\"2.0\",\"id\":")
                .append(idJson)
                .append(",\"result\":")
                .append(resultJson)
                .append('}')
                .toString();
    }
}
