package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.app.access.HostileValues.Value;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.testkit.time.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every request is hostile: each management route that takes a body, a path parameter or a query
 * parameter, on a whole gateway in basic mode over real HTTP, gets its valid request with one part
 * (or, from a seeded random generator, several) replaced by a wrong JSON type, an absurd number, a
 * missing, extra or duplicate member, a megabyte, deep nesting, bytes that are not UTF-8, control,
 * bidi or invisible characters, an invalid percent-encoding, a wrong content type or no body. Each
 * answer must be a 4xx in the documented {@code {code, error}} shape that names what was wrong
 * without echoing a megabyte, a secret or an invisible character, or (for a read) a 2xx; it must
 * come quickly, each mutating request must be one audit entry with a printable target, and nothing
 * the API shows may have changed afterwards.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ManagementApiFuzzIT {
    private static final long SEED = 0x5EC0_2026L;
    /** A hang detector, not a speed test: the longest single answer allowed. */
    private static final Duration PER_CALL = Duration.ofSeconds(5);
    /** A refusal stays short whatever was sent. */
    private static final int MAX_ANSWER_CHARS = 16_384;
    /** The password of the login template: no answer may show it. */
    private static final String SECRET = "Fuzz-Secret-7f3a9c";
    /** The longest audit target: 200 printable characters and the cut's mark. */
    private static final int MAX_TARGET = 203;
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Names of string values no route can be asked to refuse in a free-form text field. */
    private static final Set<String> INVISIBLE_OR_LONG = Set.of("NUL", "bell and escape", "newline", "DEL and C1",
            "right-to-left override", "bidi isolates", "zero-width space", "byte order mark", "lone high surrogate",
            "lone low surrogate", "70k string", "near-megabyte string");
    private static final Set<String> CONTROL_SURROGATE_OR_LONG = Set.of("NUL", "bell and escape", "newline", "DEL and C1",
            "lone high surrogate", "lone low surrogate", "70k string", "near-megabyte string", "empty string", "blank string");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;
    private Map<String, String> adminHeaders;
    private final List<String> problems = new ArrayList<>();
    private int calls;

    /** Which hostile values a field is given: those no valid request can hold. */
    enum Kind {
        /** A name with a rule (a source name, a type, a URL, a tool, a service): every text trick breaks it. */
        NAME(value -> true),
        /** A tenant: letters of every script are valid, invisible ones and over-long ones are not. */
        TENANT(value -> !isString(value) || INVISIBLE_OR_LONG.contains(value.name())),
        /** A revoked subject: anything printable is valid. */
        SUBJECT(value -> !isString(value) || CONTROL_SURROGATE_OR_LONG.contains(value.name())),
        /** Free text with only a length bound. */
        TEXT(value -> !isString(value) || Set.of("70k string", "near-megabyte string").contains(value.name())),
        /** A service name: 1-128 of A-Z a-z 0-9 _ . : / - (spec 1.9), so a path of dots and slashes is one. */
        SERVICE(value -> !value.name().equals("path traversal")),
        /** The URL of a replaced source: left out or blank, the stored one is kept (docs/connectors.md). */
        KEPT_URL(value -> !value.name().equals("empty string") && !value.name().equals("blank string")),
        /** A number within a range: 1000 nines after the point are a valid fraction. */
        NUMBER(value -> !value.name().equals("long fraction")),
        BOOLEAN(value -> !value.text().equals("true") && !value.text().equals("false")),
        /** Tool arguments: an object is the tool's to judge (200 with isError). */
        ARGUMENTS(value -> !value.text().startsWith("{"));

        private final Predicate<Value> takes;

        Kind(Predicate<Value> takes) {
            this.takes = takes;
        }

        List<Value> hostile() {
            return Stream.concat(HostileValues.strings().stream(), HostileValues.wrongTypes().stream()).filter(takes).toList();
        }

        private static boolean isString(Value value) {
            return value.text().startsWith("\"");
        }
    }

    /** A member of a route's valid body: {@code format} holds the value's place as %s. */
    record Field(String key, String format, String valid, Kind kind, boolean required) {
        static Field of(String key, String valid, Kind kind) {
            return new Field(key, "%s", valid, kind, true);
        }

        static Field optional(String key, String valid, Kind kind) {
            return new Field(key, "%s", valid, kind, false);
        }

        String member(String value) {
            return "\"" + key + "\": " + format.formatted(value);
        }
    }

    /**
     * A route that reads a JSON body, with a valid body made of {@code fields}; a {@code probe} changes
     * nothing and answers 200 with what it found (the source test), so a 2xx is no finding there.
     */
    record BodyRoute(String method, String path, boolean session, boolean probe, List<Field> fields) {
        BodyRoute(String method, String path, boolean session, List<Field> fields) {
            this(method, path, session, false, fields);
        }

        String body(Map<String, String> replaced) {
            return fields.stream().filter(f -> !replaced.containsKey(f.key()) || replaced.get(f.key()) != null)
                    .map(f -> f.member(replaced.getOrDefault(f.key(), f.valid())))
                    .collect(Collectors.joining(", ", "{", "}"));
        }

        String valid() {
            return body(Map.of());
        }
    }

    /** One hostile request: {@code readOnly} requests may answer 2xx, and so may those marked {@code may2xx}. */
    record Call(String label, String method, String target, String contentType, byte[] body, boolean session,
            boolean may2xx, List<String> mustName) {}

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private void start() throws IOException {
        Path sources = dir.resolve("sources.yaml");
        Files.writeString(sources, """
                sources:
                  - name: shared-prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                """);
        Path reference = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"))
                .toAbsolutePath();
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        env.put("PLUGINS_DIR", dir.resolve("plugins").toString());
        env.put("HUB_CATALOG_URL", reference.resolve("hub").toString());
        env.put("PLUGIN_TRUST_ROOT", reference.resolve("trust-root.pem").toString());
        env.put("ENABLE_UI_INSTALL", "true");
        gateway = TestGateway.start(env, clock, "0.1.0");
        var tools = gateway.assembly().gateway().tools();
        tools.register(StandInTools.topology());
        tools.register(StandInTools.serviceHealth());
        tools.register(StandInTools.postmortem());
        Browser alice = ManagementUsers.login(gateway, "alice");
        adminHeaders = new LinkedHashMap<>();
        adminHeaders.put("Cookie", alice.cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("; ")));
        adminHeaders.put("X-CSRF-Token", alice.csrfToken());
    }

    private static List<BodyRoute> bodyRoutes() {
        List<Field> source = List.of(Field.of("name", "\"fuzz-src\"", Kind.NAME), Field.of("type", "\"prometheus\"", Kind.NAME),
                Field.of("url", "\"http://127.0.0.1:1\"", Kind.NAME), Field.optional("tenant", "\"acme\"", Kind.TENANT),
                Field.optional("enabled", "true", Kind.BOOLEAN));
        return List.of(
                new BodyRoute("POST", "/api/auth/login", false,
                        List.of(Field.of("username", "\"fuzz-nobody\"", Kind.NAME), Field.of("password", "\"" + SECRET + "\"", Kind.NAME))),
                new BodyRoute("POST", "/api/auth/revocations", true,
                        List.of(Field.of("sub", "\"fuzz-subject\"", Kind.SUBJECT), Field.optional("reason", "\"fuzz\"", Kind.TEXT))),
                new BodyRoute("POST", "/api/sources", true, source),
                new BodyRoute("POST", "/api/sources/test", true, true, source),
                new BodyRoute("PUT", "/api/sources/shared-prometheus", true, List.of(
                        Field.optional("name", "\"shared-prometheus\"", Kind.NAME), Field.of("type", "\"prometheus\"", Kind.NAME),
                        Field.optional("url", "\"http://127.0.0.1:1\"", Kind.KEPT_URL))),
                new BodyRoute("PUT", "/api/health/thresholds", true,
                        List.of(new Field("cpu", "{\"critical\": %s}", "0.99", Kind.NUMBER, false))),
                new BodyRoute("PUT", "/api/settings", true,
                        List.of(new Field("healthThresholds", "{\"cpu\": {\"critical\": %s}}", "0.99", Kind.NUMBER, false))),
                new BodyRoute("POST", "/api/postmortems", true,
                        List.of(Field.of("service", "\"checkout\"", Kind.SERVICE), Field.optional("duration", "\"30m\"", Kind.NAME))),
                new BodyRoute("POST", "/api/playground/invoke", true,
                        List.of(Field.of("tool", "\"get_topology\"", Kind.NAME), Field.optional("arguments", "{}", Kind.ARGUMENTS))),
                new BodyRoute("POST", "/api/connectors/install", true,
                        List.of(Field.of("name", "\"no-such-connector\"", Kind.NAME), Field.optional("version", "\"9.9.9\"", Kind.NAME))));
    }

    @Test
    void everyHostileRequest_isRefusedClearlyAndQuickly_andChangesNothing() throws IOException {
        start();
        Map<String, String> before = state();
        int entriesBefore = gateway.audit.events().size();

        for (BodyRoute route : bodyRoutes()) {
            fieldValues(route);
            structure(route);
            contentTypes(route);
        }
        seededCombinations(new Random(SEED), 300);
        pathParameters();
        queryParameters();
        uploadsAndReports();

        assertThat(problems).as(problems.size() + " of " + calls + " hostile requests were answered badly").isEmpty();
        Map<String, String> after = state();
        assertThat(before.keySet().stream().filter(key -> !before.get(key).equals(after.get(key)))
                .map(key -> key + " was " + shortened(before.get(key)) + " and is " + shortened(after.get(key))).toList())
                .as("nothing the API shows changed").isEmpty();
        assertThat(gateway.audit.events().subList(entriesBefore, gateway.audit.events().size()))
                .as("audit targets are printable and bounded").allSatisfy(ManagementApiFuzzIT::printableEntry);
        assertThat(calls).isGreaterThan(1500);
    }

    // ---- the hostile requests

    private void fieldValues(BodyRoute route) {
        for (Field field : route.fields()) {
            for (Value value : field.kind().hostile()) {
                boolean breaksJson = breaksJson(value);
                send(new Call(route.path() + " " + field.key() + "=" + value, route.method(), route.path(), "application/json",
                        utf8(route.body(Map.of(field.key(), value.text()))), route.session(), route.probe(),
                        breaksJson ? List.of() : List.of(field.key())));
            }
            if (field.valid().startsWith("\"")) {
                for (Value bytes : HostileValues.invalidUtf8()) {
                    String inner = field.valid().substring(1, field.valid().length() - 1);
                    String body = route.body(Map.of(field.key(), "\"" + inner + "\u0001MARK\""));
                    send(new Call(route.path() + " " + field.key() + " with " + bytes, route.method(), route.path(), "application/json",
                            withBytes(body, "\u0001MARK", bytes.text()), route.session(), false, List.of("UTF-8")));
                }
            }
            if (field.required()) {
                Map<String, String> without = new HashMap<>();
                without.put(field.key(), null);
                send(new Call(route.path() + " without " + field.key(), route.method(), route.path(), "application/json",
                        utf8(route.body(without)), route.session(), route.probe(), List.of(field.key())));
            }
        }
    }

    private void structure(BodyRoute route) {
        String valid = route.valid();
        String open = valid.substring(0, valid.length() - 1);
        List<Value> extras = List.of(new Value("unknown member", "\"zzz\": 1"),
                new Value("unknown member with bidi name", "\"\\u202ezzz\": 1"),
                new Value("unknown member with control name", "\"a\\u001b[2Jb\": 1"),
                new Value("unknown member with 70k name", "\"" + HostileValues.FILLER.repeat(9_000) + "\": 1"),
                new Value("2000 unknown members", Stream.iterate(0, i -> i + 1).limit(2000).map(i -> "\"u" + i + "\": 1")
                        .collect(Collectors.joining(", "))));
        Map<String, List<String>> named = Map.of("unknown member", List.of("zzz"), "2000 unknown members", List.of("u0", "more"));
        for (Value extra : extras) {
            send(new Call(route.path() + " + " + extra, route.method(), route.path(), "application/json",
                    utf8(open + ", " + extra.text() + "}"), route.session(), false, named.getOrDefault(extra.name(), List.of())));
        }
        for (Field field : route.fields()) {
            send(new Call(route.path() + " " + field.key() + " twice", route.method(), route.path(), "application/json",
                    utf8(open + ", " + field.member(field.valid()) + "}"), route.session(), false, List.of()));
            String capital = Character.toUpperCase(field.key().charAt(0)) + field.key().substring(1);
            send(new Call(route.path() + " " + capital, route.method(), route.path(), "application/json",
                    utf8(valid.replace("\"" + field.key() + "\"", "\"" + capital + "\"")), route.session(), false, List.of(capital)));
        }
        for (Value body : HostileValues.bodies()) {
            send(new Call(route.path() + " body " + body, route.method(), route.path(), "application/json", utf8(body.text()),
                    route.session(), false, List.of()));
        }
        send(new Call(route.path() + " byte order mark", route.method(), route.path(), "application/json",
                utf8("\ufeff" + valid), route.session(), false, List.of()));
        send(new Call(route.path() + " over 1 MiB", route.method(), route.path(), "application/json",
                utf8(open + ", \"zzz\": \"" + HostileValues.NEAR_MEGABYTE + HostileValues.FILLER.repeat(2000) + "\"}"),
                route.session(), false, List.of()));
    }

    private void contentTypes(BodyRoute route) {
        List<String> refused = new ArrayList<>(List.of("text/plain", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/json; charset=iso-8859-1", "application/json; charset=utf-16",
                "application/jsonx", "json", "", "application/json\u0001", "application/json; charset"));
        refused.add(null);
        for (String type : refused) {
            send(new Call(route.path() + " as " + type, route.method(), route.path(), type, utf8(route.valid()), route.session(),
                    false, List.of()));
        }
        send(new Call(route.path() + " no body", route.method(), route.path(), "application/json", null, route.session(), false,
                List.of()));
    }

    private void seededCombinations(Random random, int count) {
        List<BodyRoute> routes = bodyRoutes();
        for (int i = 0; i < count; i++) {
            BodyRoute route = routes.get(random.nextInt(routes.size()));
            Map<String, String> replaced = new LinkedHashMap<>();
            List<String> names = new ArrayList<>();
            for (Field field : route.fields()) {
                if (random.nextInt(3) > 0 || replaced.isEmpty() && field == route.fields().getLast()) {
                    List<Value> values = field.kind().hostile();
                    Value value = values.get(random.nextInt(values.size()));
                    replaced.put(field.key(), value.text());
                    names.add(field.key() + "=" + value);
                }
            }
            send(new Call(route.path() + " seeded #" + i + " " + names, route.method(), route.path(), "application/json",
                    utf8(route.body(replaced)), route.session(), route.probe(), List.of()));
        }
    }

    private void pathParameters() {
        for (Value segment : HostileValues.pathSegments()) {
            String put = "{\"name\": \"shared-prometheus\", \"type\": \"prometheus\", \"url\": \"http://127.0.0.1:1\"}";
            send(new Call("GET source " + segment, "GET", "/api/sources/" + segment.text(), null, null, true, true, List.of()));
            send(new Call("PUT source " + segment, "PUT", "/api/sources/" + segment.text(), "application/json", utf8(put), true,
                    false, List.of()));
            send(new Call("DELETE source " + segment, "DELETE", "/api/sources/" + segment.text(), null, null, true, false, List.of()));
            send(new Call("GET post-mortem " + segment, "GET", "/api/postmortems/" + segment.text(), null, null, true, true,
                    List.of()));
            send(new Call("DELETE post-mortem " + segment, "DELETE", "/api/postmortems/" + segment.text(), null, null, true, false,
                    List.of()));
            send(new Call("DELETE connector " + segment, "DELETE", "/api/connectors/" + segment.text(), null, null, true, false,
                    List.of()));
            send(new Call("GET health " + segment, "GET", "/api/health/" + segment.text(), null, null, true, true, List.of()));
            send(new Call("GET health nested " + segment, "GET", "/api/health/payments/" + segment.text(), null, null, true, true,
                    List.of()));
        }
    }

    private void queryParameters() {
        Map<String, List<String>> readParameters = new LinkedHashMap<>();
        readParameters.put("/api/audit", List.of("from", "to", "actor", "action", "beforeSeq", "limit"));
        readParameters.put("/api/postmortems", List.of("limit", "before"));
        readParameters.put("/api/health/anomaly-sparklines", List.of("bucket"));
        readParameters.put("/api/services", List.of("filter", "limit"));
        readParameters.put("/api/topology", List.of("namespace"));
        readParameters.put("/api/health/checkout", List.of("window"));
        readParameters.forEach((path, names) -> {
            for (String name : names) {
                for (Value value : HostileValues.queryValues()) {
                    send(new Call(path + "?" + name + "=" + value, "GET", path + "?" + name + "=" + value.text(), null, null, true,
                            true, List.of()));
                }
                send(new Call(path + "?" + name + " twice", "GET", path + "?" + name + "=1&" + name + "=2", null, null, true, true,
                        List.of()));
            }
        });
        String install = "{\"name\": \"no-such-connector\"}";
        for (Value value : HostileValues.queryValues()) {
            send(new Call("install allowDowngrade=" + value, "POST", "/api/connectors/install?allowDowngrade=" + value.text(),
                    "application/json", utf8(install), true, false, List.of()));
            send(new Call("remove force=" + value, "DELETE", "/api/connectors/no-such-plugin?force=" + value.text(), null, null, true,
                    false, List.of()));
        }
        List<String> names = List.of("%E2%80%AEx", "a%01b", "a%ZZ", HostileValues.FILLER.repeat(300), "%00", "limit%00");
        List<String[]> everyRoute = new ArrayList<>();
        bodyRoutes().forEach(route -> everyRoute.add(new String[] {route.method(), route.path(), route.valid()}));
        readParameters.keySet().forEach(path -> everyRoute.add(new String[] {"GET", path, null}));
        for (String[] route : everyRoute) {
            for (String name : names) {
                boolean body = route[2] != null;
                send(new Call(route[0] + " " + route[1] + "?" + name.substring(0, Math.min(12, name.length())), route[0],
                        route[1] + "?" + name + "=1", body ? "application/json" : null, body ? utf8(route[2]) : null,
                        !route[1].equals("/api/auth/login"), false, List.of()));
            }
        }
    }

    private void uploadsAndReports() {
        byte[] garbage = new byte[4096];
        new Random(SEED).nextBytes(garbage);
        byte[] gzipOnly = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
        Map<String, byte[]> bundles = new LinkedHashMap<>();
        bundles.put("empty", new byte[0]);
        bundles.put("random bytes", garbage);
        bundles.put("gzip header only", gzipOnly);
        bundles.put("JSON", utf8("{\"name\": \"x\"}"));
        for (Map.Entry<String, byte[]> bundle : bundles.entrySet()) {
            for (String type : new String[] {"application/octet-stream", "application/gzip", "application/json", null}) {
                send(new Call("upload " + bundle.getKey() + " as " + type, "POST", "/api/connectors/upload", type, bundle.getValue(),
                        true, false, List.of()));
            }
        }
        for (Value body : HostileValues.bodies()) {
            send(new Call("CSP report " + body, "POST", "/api/csp-violations", "application/csp-report", utf8(body.text()), false,
                    true, List.of()));
        }
        send(new Call("CSP report 70k", "POST", "/api/csp-violations", "application/reports+json",
                utf8("[{\"type\": \"csp-violation\", \"body\": {\"documentURL\": \"" + HostileValues.FILLER.repeat(9000) + "\"}}]"),
                false, true, List.of()));
    }

    // ---- sending and judging

    private void send(Call call) {
        calls++;
        Map<String, String> headers = new LinkedHashMap<>();
        if (call.session()) {
            headers.putAll(adminHeaders);
        }
        if (call.contentType() != null) {
            headers.put("Content-Type", call.contentType());
        }
        int entriesBefore = gateway.audit.events().size();
        long started = System.nanoTime();
        RawExchange.Answer answer;
        try {
            answer = RawExchange.send(gateway.port(), call.method(), call.target(), headers, call.body());
        } catch (RuntimeException e) {
            problems.add(call.label() + ": no answer: " + e);
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        int entries = gateway.audit.events().size() - entriesBefore;
        List<String> wrong = judge(call, answer, took, entries);
        if (!wrong.isEmpty()) {
            problems.add(call.label() + " -> " + answer.status() + " " + shortened(answer.body()) + " " + answer.headers() + ": "
                    + String.join("; ", wrong));
        }
    }

    private List<String> judge(Call call, RawExchange.Answer answer, Duration took, int entries) {
        List<String> wrong = new ArrayList<>();
        if (took.compareTo(PER_CALL) > 0) {
            wrong.add("took " + took.toMillis() + " ms");
        }
        int status = answer.status();
        boolean mayAnswer2xx = call.may2xx();
        if (status >= 500) {
            wrong.add("a server error");
        } else if (status < 400 && !mayAnswer2xx) {
            wrong.add("accepted");
        }
        int expectedEntries = MUTATING.contains(call.method()) && !call.target().startsWith("/api/csp-violations") ? 1 : 0;
        if (entries != expectedEntries && !malformed(answer)) {
            wrong.add(entries + " audit entries, not " + expectedEntries);
        }
        if (status == 204) {
            return wrong;
        }
        String type = answer.headers().getOrDefault("content-type", "");
        if (!type.startsWith("application/json")) {
            wrong.add("Content-Type " + type);
            return wrong;
        }
        if (answer.body().length() > MAX_ANSWER_CHARS && status >= 400) {
            wrong.add("an answer of " + answer.body().length() + " characters");
        }
        // the audit log holds earlier requests' targets (bounded): reading them back is no echo
        if (answer.body().contains(HostileValues.ECHO_MARK) && !(status < 400 && call.target().startsWith("/api/audit"))) {
            wrong.add("echoes the huge value");
        }
        if (answer.body().contains(SECRET)) {
            wrong.add("echoes the password");
        }
        if (status < 400) {
            return wrong;
        }
        JsonNode body;
        try {
            body = MAPPER.readTree(answer.body());
        } catch (IOException e) {
            wrong.add("not JSON");
            return wrong;
        }
        String code = body.path("code").asText("");
        String error = body.path("error").asText("");
        if (!code.matches("OMCP_[A-Z_]+")) {
            wrong.add("no OMCP_ code");
        }
        if (error.length() < 10) {
            wrong.add("no error saying what was wrong");
        }
        // a 401, 404 or 409 is about what the request names, not its form; a 400 says which part was wrong
        String said = (code + " " + error + " " + body.path("errors") + " " + body.path("reason").asText("")).toLowerCase(Locale.ROOT);
        for (String name : status == 400 ? call.mustName() : List.<String>of()) {
            if (!said.contains(name.toLowerCase(Locale.ROOT))) {
                wrong.add("does not name " + name);
            }
        }
        String invisible = invisible(error + body.path("errors").toString() + body.path("reason").asText(""));
        if (!invisible.isEmpty()) {
            wrong.add("shows invisible characters " + invisible);
        }
        return wrong;
    }

    /** Requests Jetty refused before any route (an invalid encoding): no route could audit them. */
    private static boolean malformed(RawExchange.Answer answer) {
        return answer.body().contains("OMCP_MALFORMED_REQUEST") || answer.body().contains("OMCP_URI_TOO_LONG");
    }

    /** The code points of {@code text} a reader cannot see or that reorder what follows. */
    private static String invisible(String text) {
        return text.codePoints().filter(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                        || Character.isSurrogate((char) c) && c <= 0xFFFF)
                .mapToObj(c -> "U+%04X".formatted(c)).distinct().collect(Collectors.joining(" "));
    }

    private static void printableEntry(AuditEvent event) {
        assertThat(event.target()).as(event.toString().substring(0, Math.min(300, event.toString().length())))
                .hasSizeLessThanOrEqualTo(MAX_TARGET);
        assertThat(invisible(event.target())).as("target " + event.target()).isEmpty();
        assertThat(invisible(event.actor())).as("actor " + event.actor()).isEmpty();
    }

    /** Values the body reader refuses before any field is read: the answer is about the body, not the field. */
    private static boolean breaksJson(Value value) {
        return value.name().contains("nesting 100") || value.name().equals("1200 digits") || value.name().equals("huge exponent")
                || value.name().startsWith("lone ");
    }

    private Map<String, String> state() throws IOException {
        Map<String, String> state = new LinkedHashMap<>();
        for (String path : List.of("/api/sources", "/api/health/thresholds", "/api/settings", "/api/auth/revocations",
                "/api/postmortems", "/api/connectors", "/api/policy", "/api/me")) {
            RawExchange.Answer answer = RawExchange.send(gateway.port(), "GET", path, adminHeaders, null);
            state.put(path, answer.status() + " " + withoutActivity(answer.body()));
        }
        state.put("sources.yaml", Files.readString(dir.resolve("sources.yaml")));
        Path plugins = dir.resolve("plugins");
        try (Stream<Path> files = Files.exists(plugins) ? Files.walk(plugins) : Stream.empty()) {
            // the plugins directory and its lock file are made by the first install or removal, even a refused one
            state.put("plugins", files.filter(file -> !file.equals(plugins) && !file.getFileName().toString().startsWith(".omcp-"))
                    .map(Path::toString).sorted().toList().toString());
        }
        return state;
    }

    /**
     * {@code body} without what tool calls change (GET /api/services asks the source, and its failure
     * is recorded): when a source last answered or failed is activity, not state a request changed.
     */
    private static String withoutActivity(String body) throws IOException {
        JsonNode json = MAPPER.readTree(body);
        json.path("sources").forEach(source -> ((com.fasterxml.jackson.databind.node.ObjectNode) source)
                .remove(List.of("lastAnswerAt", "lastFailureAt", "lastFailure", "consecutiveFailures", "failingSince")));
        return json.toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code text} as UTF-8 with {@code mark} replaced by the raw bytes {@code bytes} (one char, one byte). */
    private static byte[] withBytes(String text, String mark, String bytes) {
        int at = text.indexOf(mark);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(text.substring(0, at)));
        out.writeBytes(bytes.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(utf8(text.substring(at + mark.length())));
        return out.toByteArray();
    }

    private static String shortened(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...(" + text.length() + " characters)";
    }
}
