package dev.omcp.connectors.builtin.transport;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.TlsMaterial;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The transport part of a source entry:
 *
 * <pre>
 * auth:    {type: none | basic | bearer, username, password, token}
 * tls:     {ca | caFile, cert | certFile, key | keyFile, insecureSkipVerify}
 * headers: {X-Scope-OrgID: team-a}
 * </pre>
 *
 * Messages name the setting and never repeat its value.
 */
record SourceTransportSettings(Optional<String> authorization, TlsMaterial tls, Map<String, String> headers) {
    private static final int MAX_PEM_BYTES = 1 << 20;
    private static final Set<String> RESTRICTED_HEADERS = Set.of(
            "host", "connection", "content-length", "expect", "upgrade", "transfer-encoding", "te", "trailer", "via");

    static SourceTransportSettings parse(JsonObject settings) throws ConnectorException {
        return new SourceTransportSettings(authorization(settings), tls(settings), headers(settings));
    }

    private static Optional<String> authorization(JsonObject settings) throws ConnectorException {
        JsonObject auth = object(settings, "auth");
        String type = string(auth, "type", "auth.type").orElse(auth.isEmpty() ? "none" : "").toLowerCase(Locale.ROOT);
        switch (type) {
            case "none" -> {
                return Optional.empty();
            }
            case "basic" -> {
                String user = string(auth, "username", "auth.username").orElseThrow(() -> bad("auth.username is required for basic auth"));
                String password = string(auth, "password", "auth.password").orElse("");
                if (user.contains(":")) {
                    throw bad("auth.username must not contain ':'");
                }
                return Optional.of("Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
            }
            case "bearer" -> {
                String token = string(auth, "token", "auth.token").filter(t -> !t.isBlank())
                        .orElseThrow(() -> bad("auth.token is required for bearer auth"));
                if (token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                    throw bad("auth.token must be printable ASCII without spaces");
                }
                return Optional.of("Bearer " + token);
            }
            default -> throw bad("auth.type must be none, basic or bearer");
        }
    }

    private static TlsMaterial tls(JsonObject settings) throws ConnectorException {
        JsonObject tls = object(settings, "tls");
        Optional<String> ca = pem(tls, "ca", "caFile");
        Optional<String> cert = pem(tls, "cert", "certFile");
        Optional<String> key = pem(tls, "key", "keyFile");
        if (cert.isPresent() != key.isPresent()) {
            throw bad("tls.cert and tls.key go together: a client certificate needs its private key");
        }
        boolean skip = false;
        JsonValue skipValue = tls.get("insecureSkipVerify");
        if (skipValue != null) {
            if (skipValue != JsonValue.TRUE && skipValue != JsonValue.FALSE) {
                throw bad("tls.insecureSkipVerify must be true or false");
            }
            skip = skipValue == JsonValue.TRUE;
        }
        return new TlsMaterial(ca, cert, key, skip);
    }

    private static Optional<String> pem(JsonObject tls, String inline, String file) throws ConnectorException {
        Optional<String> text = string(tls, inline, "tls." + inline);
        Optional<String> path = string(tls, file, "tls." + file);
        if (text.isPresent() && path.isPresent()) {
            throw bad("tls." + inline + " and tls." + file + " both set; use one");
        }
        if (path.isPresent()) {
            return Optional.of(readPem(path.get(), "tls." + file));
        }
        return text;
    }

    /** Reads a PEM file named by a setting (only the sources file may name files). */
    static String readPem(String path, String setting) throws ConnectorException {
        try {
            return SettingFile.read(Path.of(path), MAX_PEM_BYTES, StandardCharsets.US_ASCII);
        } catch (SettingFile.UnusableException e) {
            throw bad(setting + " names a file that " + e.getMessage() + "; it must be a PEM file");
        } catch (java.nio.file.InvalidPathException e) {
            throw bad(setting + " names a file that cannot be read (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static Map<String, String> headers(JsonObject settings) throws ConnectorException {
        JsonObject headers = object(settings, "headers");
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : headers.entrySet()) {
            String name = e.getKey();
            if (!name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}") || RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw bad("headers." + name + " is not a header the gateway may set");
            }
            if (!(e.getValue() instanceof JsonString value) || value.getString().chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw bad("headers." + name + " must be a single-line string");
            }
            out.put(name, value.getString());
        }
        return out;
    }

    private static JsonObject object(JsonObject settings, String key) throws ConnectorException {
        JsonValue v = settings.get(key);
        if (v == null || v == JsonValue.NULL) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        if (v.getValueType() != JsonValue.ValueType.OBJECT) {
            throw bad(key + " must be an object");
        }
        return v.asJsonObject();
    }

    private static Optional<String> string(JsonObject o, String key, String setting) throws ConnectorException {
        JsonValue v = o.get(key);
        if (v == null || v == JsonValue.NULL) {
            return Optional.empty();
        }
        if (!(v instanceof JsonString s)) {
            throw bad(setting + " must be a string");
        }
        return Optional.of(s.getString());
    }

    private static ConnectorException bad(String message) {
        return new ConnectorException(ConnectorException.Kind.BAD_QUERY, message);
    }

    @Override
    public String toString() {
        return "SourceTransportSettings[auth=" + authorization.isPresent() + ", " + tls + ", headers=" + headers.keySet() + "]";
    }
}
