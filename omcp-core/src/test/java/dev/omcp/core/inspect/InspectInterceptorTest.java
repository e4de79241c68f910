package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;

import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InspectInterceptorTest {
    private static final String SECRET_FILTER = "|= \"Bearer sk-live-4242424242\"";
    private static final JsonObject SCHEMA = Json.createObjectBuilder().add("type", "object")
            .add("properties", Json.createObjectBuilder()
                    .add("format", Json.createObjectBuilder().add("type", "string").add("enum", Json.createArrayBuilder().add("json"))))
            .build();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final MemoryObservations store = new MemoryObservations(100);
    private final Inspector inspector = new Inspector(InspectMode.OBSERVE, store, Entitlements.none(), clock, Duration.ofHours(24));
    private final InspectInterceptor interceptor = new InspectInterceptor(inspector, tool -> Optional.of(SCHEMA));

    @RegisterExtension
    final CapturedLog log = new CapturedLog(InspectInterceptor.class);

    /** Accepted: key:ci may query the logs of another service than the one {@link #toolCall()} names. */
    private static final Rule OTHER_SERVICE = accepted("r-cart", "key:ci", "query_logs", Map.of("service", List.of("cart")), Map.of());

    private Inspector profiled(InspectMode mode, Rule rule) {
        return new Inspector(mode, store, new MemoryProfile(List.of(rule)), feature -> Optional.empty(), clock, Duration.ofHours(24),
                InspectFixtures.sequentialIds());
    }

    /** The body of an error result built as every refusal of the gateway is. */
    private static JsonObject blockedBody(McpResult result) {
        assertThat(result).isInstanceOf(McpResult.Success.class);
        JsonObject answer = ((McpResult.Success) result).result();
        assertThat(answer.getBoolean("isError", false)).as(answer.toString()).isTrue();
        assertThat(answer.containsKey("structuredContent")).isFalse();
        assertThat(answer.getJsonArray("content")).hasSize(1);
        return Json.createReader(new java.io.StringReader(answer.getJsonArray("content").getJsonObject(0).getString("text"))).readObject();
    }

    private static McpCall toolCall() {
        return toolCall(Principal.apiKey("ci", "acme"));
    }

    private static McpCall toolCall(Principal principal) {
        JsonObject arguments = Json.createObjectBuilder().add("service", "checkout").add("filter", SECRET_FILTER)
                .add("limit", 50).add("window", "2h").add("format", "json").add("raw", true).build();
        JsonObject params = Json.createObjectBuilder().add("name", "query_logs").add("arguments", arguments).build();
        return new McpCall(principal, Optional.empty(), ProtocolRevision.LATEST, "tools/call",
                Json.createValue(1), params, McpTransport.IN_PROCESS, McpOutbound.discarding());
    }

    private McpResult answering(McpResult result) {
        return interceptor.intercept(toolCall(), call -> {
            clock.advance(Duration.ofMillis(37));
            return result;
        });
    }

    private List<Observation> all() {
        return store.newestFirst(ObservationQuery.newest(100));
    }

    @Test
    void okCall_isRecordedAsItsSignatureWithLatencyFromTheClock() {
        answering(McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));

        Observation o = all().getFirst();
        assertThat(o.principal()).isEqualTo("key:ci");
        assertThat(o.authKind()).isEqualTo("api_key");
        assertThat(o.tenant()).isEqualTo("acme");
        assertThat(o.tool()).isEqualTo("query_logs");
        assertThat(o.resources()).containsExactlyEntriesOf(java.util.Map.of("service", "checkout"));
        assertThat(o.args()).containsEntry("limit", "num:<=100").containsEntry("window", "dur:<=1d")
                .containsEntry("format", "json").containsEntry("raw", "true")
                .containsEntry("filter", "text:len<=64:lower,upper,digit,space,punct");
        assertThat(o.outcome()).isEqualTo(Observation.Outcome.OK);
        assertThat(o.decision()).isEqualTo(Observation.Decision.ALLOW);
        assertThat(o.latencyMs()).isEqualTo(37);
        assertThat(o.toString()).doesNotContain("sk-live").doesNotContain("Bearer");
        assertThat(inspector.status().observed()).isEqualTo(1);
    }

    @Test
    void isErrorResultAndJsonRpcError_areRecordedAsErrors() {
        answering(McpResult.Success.of(Json.createObjectBuilder().add("isError", true).build()));
        answering(McpResult.Failure.of(-32602, "bad"));

        assertThat(all()).extracting(Observation::outcome).containsExactly(Observation.Outcome.ERROR, Observation.Outcome.ERROR);
    }

    @Test
    void modeOff_recordsNothing() {
        assertThat(inspector.changeMode(InspectMode.OFF)).isInstanceOf(ModeChange.Changed.class);

        answering(McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));

        assertThat(all()).isEmpty();
        assertThat(inspector.status().observed()).isZero();
    }

    @Test
    void enforceWithoutEntitlement_isRefused_andDryrun_isAllowed() {
        assertThat(inspector.changeMode(InspectMode.ENFORCE)).isInstanceOf(ModeChange.EntitlementRequired.class);
        assertThat(inspector.status().mode()).isEqualTo(InspectMode.OBSERVE);
        assertThat(inspector.changeMode(InspectMode.DRYRUN)).isEqualTo(new ModeChange.Changed(InspectMode.OBSERVE, InspectMode.DRYRUN));
    }

    @Test
    void theObservation_carriesTheCallersRolesAndProducts() {
        Principal alice = new Principal("user:alice", "alice", AuthKind.SESSION, "acme", Set.of("sre", "viewer"), Optional.empty(),
                AllowLists.none().withProducts(List.of("obs")));

        interceptor.intercept(toolCall(alice), call -> McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));

        Observation o = all().getFirst();
        assertThat(o.roles()).containsExactly("sre", "viewer");
        assertThat(o.products()).containsExactly("obs");
    }

    @Test
    void dryrun_recordsACallOutsideTheProfileAsWouldBlock_logsIt_andRunsIt() {
        Inspector dryrun = profiled(InspectMode.DRYRUN, OTHER_SERVICE);
        AtomicInteger ran = new AtomicInteger();

        McpResult result = new InspectInterceptor(dryrun, tool -> Optional.of(SCHEMA)).intercept(toolCall(), call -> {
            ran.incrementAndGet();
            return McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT);
        });

        assertThat(ran).hasValue(1);
        assertThat(result).isEqualTo(McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));
        assertThat(all()).singleElement().satisfies(o -> {
            assertThat(o.decision()).isEqualTo(Observation.Decision.WOULD_BLOCK);
            assertThat(o.outcome()).isEqualTo(Observation.Outcome.OK);
        });
        assertThat(dryrun.status().wouldBlock()).isEqualTo(1);
        assertThat(dryrun.status().blocked()).isZero();
        assertThat(log.messages(Level.INFO)).singleElement().asString()
                .isEqualTo("event=inspect-would-block principal=\"key:ci\" tool=\"query_logs\" kind=new-resource");
    }

    @Test
    void enforce_answersACallOutsideTheProfileWithTheBlockedErrorResult_withoutRunningIt() {
        Inspector enforce = profiled(InspectMode.ENFORCE, OTHER_SERVICE);

        McpResult result = new InspectInterceptor(enforce, tool -> Optional.of(SCHEMA)).intercept(toolCall(), call -> {
            throw new AssertionError("a blocked call must not reach the tool");
        });

        JsonObject body = blockedBody(result);
        assertThat(body.getString("error")).isEqualTo("OMCP_INSPECT_BLOCKED");
        assertThat(body.getString("tool")).isEqualTo("query_logs");
        assertThat(body.getString("kind")).isEqualTo("new-resource");
        assertThat(body.getString("message")).contains("outside the operator's reviewed Inspect profile for this credential",
                "new-resource", "Retrying the same call will not help", "ask an operator")
                .doesNotContain("checkout").doesNotContain("payments");
        assertThat(all()).singleElement().satisfies(o -> {
            assertThat(o.decision()).isEqualTo(Observation.Decision.BLOCKED);
            assertThat(o.outcome()).isEqualTo(Observation.Outcome.ERROR);
            assertThat(o.resources()).containsEntry("service", "checkout");
        });
        assertThat(enforce.status().blocked()).isEqualTo(1);
    }

    @Test
    void enforce_leavesACallThatNamesNoTool_toTheHandlersInvalidParams() {
        Inspector enforce = profiled(InspectMode.ENFORCE, OTHER_SERVICE);
        McpCall nameless = toolCall().withParams(Json.createObjectBuilder().add("arguments", JsonValue.EMPTY_JSON_OBJECT).build());
        McpResult invalidParams = McpResult.Failure.of(-32602, "name is required");

        McpResult result = new InspectInterceptor(enforce, tool -> Optional.of(SCHEMA)).intercept(nameless, call -> invalidParams);

        assertThat(result).as("no tool can run, so there is nothing to block").isEqualTo(invalidParams);
        assertThat(enforce.status().blocked()).isZero();
    }

    @Test
    void enforce_runsACallAnAcceptedRuleCovers_andRecordsItAllowed() {
        Rule checkout = accepted("r-checkout", "key:ci", "query_logs", Map.of("service", List.of("checkout")),
                Map.of("limit", List.of("num:<=100")));
        Inspector enforce = profiled(InspectMode.ENFORCE, checkout);

        McpResult result = new InspectInterceptor(enforce, tool -> Optional.of(SCHEMA)).intercept(toolCall(),
                call -> McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));

        assertThat(result).isEqualTo(McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));
        assertThat(all()).singleElement().extracting(Observation::decision).isEqualTo(Observation.Decision.ALLOW);
        assertThat(enforce.status().blocked()).isZero();
        assertThat(enforce.status().wouldBlock()).isZero();
    }

    @Test
    void aCallThatCannotBeEvaluated_isBlockedInEnforce_andRunInDryrun() {
        Function<String, Optional<JsonObject>> broken = tool -> {
            throw new IllegalStateException("registry is gone");
        };
        AtomicInteger ran = new AtomicInteger();

        McpResult blocked = new InspectInterceptor(profiled(InspectMode.ENFORCE, OTHER_SERVICE), broken).intercept(toolCall(), call -> {
            throw new AssertionError("fail closed: not run");
        });
        McpResult allowed = new InspectInterceptor(profiled(InspectMode.DRYRUN, OTHER_SERVICE), broken).intercept(toolCall(), call -> {
            ran.incrementAndGet();
            return McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT);
        });

        assertThat(blockedBody(blocked).getString("kind")).isEqualTo("evaluation-failed");
        assertThat(ran).hasValue(1);
        assertThat(allowed).isEqualTo(McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));
        assertThat(log.messages(Level.WARN)).anySatisfy(line -> assertThat(line).contains("event=inspect-record-failed",
                "error=IllegalStateException")).anySatisfy(line -> assertThat(line).contains("event=inspect-blocked",
                "kind=evaluation-failed"));
    }

    @Test
    void anUnknownTool_isANewToolLikeAnyOther() {
        Inspector dryrun = profiled(InspectMode.DRYRUN, OTHER_SERVICE);
        JsonObject params = Json.createObjectBuilder().add("name", "no_such_tool").build();

        new InspectInterceptor(dryrun, tool -> Optional.empty()).intercept(new McpCall(Principal.apiKey("ci", "acme"), Optional.empty(),
                ProtocolRevision.LATEST, "tools/call", Json.createValue(2), params, McpTransport.IN_PROCESS, McpOutbound.discarding()),
                call -> McpResult.Failure.of(-32602, "unknown tool"));

        assertThat(log.messages(Level.INFO)).singleElement().asString().endsWith("kind=new-tool");
    }

    @Test
    void readsStopAtTheWindow_andTheRingKeepsTheNewest() {
        MemoryObservations ring = new MemoryObservations(2);
        Inspector small = new Inspector(InspectMode.OBSERVE, ring, Entitlements.none(), clock, Duration.ofHours(1));
        InspectInterceptor observer = new InspectInterceptor(small, tool -> Optional.empty());
        for (int i = 0; i < 3; i++) {
            observer.intercept(toolCall(), call -> McpResult.Success.of(JsonValue.EMPTY_JSON_OBJECT));
            clock.advance(Duration.ofMinutes(40));
        }
        // spec 8: 3 calls at 0, 40 and 80 minutes; the ring holds the newest 2; at 120 minutes the window (1h) keeps the last
        assertThat(ring.newestFirst(ObservationQuery.newest(10))).hasSize(2);
        assertThat(small.events(ObservationQuery.newest(10))).extracting(Observation::ts)
                .containsExactly(Instant.parse("2026-03-01T11:20:00Z"));
    }

    @Test
    void shapes_bucketNumbersDurationsAndArrays() {
        assertThat(ArgumentShape.numberBucket(10)).isEqualTo("<=10");
        assertThat(ArgumentShape.numberBucket(1001)).isEqualTo("more");
        assertThat(ArgumentShape.durationBucket(5, "m")).isEqualTo("<=5m");
        assertThat(ArgumentShape.durationBucket(2, "d")).isEqualTo("more");
        assertThat(ArgumentShape.shape(Json.createArrayBuilder().add(1).add(2).build(), JsonValue.EMPTY_JSON_OBJECT))
                .isEqualTo("array:<=10");
        assertThat(ArgumentShape.shape(Json.createValue("not-listed"), SCHEMA)).startsWith("text:");
    }
}
