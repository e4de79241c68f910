package dev.omcp.core.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

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

    private static McpCall toolCall() {
        JsonObject arguments = Json.createObjectBuilder().add("service", "checkout").add("filter", SECRET_FILTER)
                .add("limit", 50).add("window", "2h").add("format", "json").add("raw", true).build();
        JsonObject params = Json.createObjectBuilder().add("name", "query_logs").add("arguments", arguments).build();
        return new McpCall(Principal.apiKey("ci", "acme"), Optional.empty(), ProtocolRevision.LATEST, "tools/call",
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
    void enforceWithoutEntitlement_isRefusedAndDryrun_isNotBuilt_modeUnchanged() {
        assertThat(inspector.changeMode(InspectMode.ENFORCE)).isInstanceOf(ModeChange.EntitlementRequired.class);
        assertThat(inspector.changeMode(InspectMode.DRYRUN)).isInstanceOf(ModeChange.NotBuilt.class);
        Inspector entitled = new Inspector(InspectMode.OBSERVE, store, feature -> Optional.empty(), clock, Duration.ofHours(1));
        assertThat(entitled.changeMode(InspectMode.ENFORCE)).isInstanceOf(ModeChange.NotBuilt.class);
        assertThat(inspector.status().mode()).isEqualTo(InspectMode.OBSERVE);
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
