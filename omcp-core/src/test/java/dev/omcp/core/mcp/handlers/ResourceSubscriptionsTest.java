package dev.omcp.core.mcp.handlers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.mcp.McpCall;
import dev.omcp.core.mcp.McpResult;
import dev.omcp.core.mcp.revision.ProtocolRevision;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpSession;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.resources.ResourceDefinition;
import dev.omcp.ports.resources.ResourceProvider;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The subscriptions {@code resources/subscribe} keeps, per session. */
class ResourceSubscriptionsTest {
    private final Set<String> live = ConcurrentHashMap.newKeySet();
    private final ResourceMethods resources = new ResourceMethods(List.of(new OneResource()), live::contains);

    @Test
    void subscriptionsOfSessionsThatExpired_areDropped_insteadOfPilingUpForever() {
        // Most clients never send DELETE: their sessions expire while idle, which no listener hears,
        // so what they subscribed to stayed in the table for the life of the process.
        live.add("kept");
        assertThat(subscribe("kept")).isInstanceOf(McpResult.Success.class);
        int expired = 5 * ResourceMethods.SWEEP_FLOOR;
        for (int i = 0; i < expired; i++) {
            String session = "expired-" + i;
            live.add(session);
            assertThat(subscribe(session)).isInstanceOf(McpResult.Success.class);
            live.remove(session);
        }
        live.add("new");
        subscribe("new");

        long stillHeld = IntStream.range(0, expired).filter(i -> resources.isSubscribed("expired-" + i, OneResource.URI)).count();
        assertThat(stillHeld).as("subscriptions of expired sessions still held").isLessThanOrEqualTo(ResourceMethods.SWEEP_FLOOR);
        assertThat(resources.sessionsWithSubscriptions()).isLessThanOrEqualTo(ResourceMethods.SWEEP_FLOOR + 2);
        assertThat(resources.isSubscribed("kept", OneResource.URI)).as("a live session keeps its subscription").isTrue();
        assertThat(resources.isSubscribed("new", OneResource.URI)).isTrue();
    }

    @Test
    void manyLiveSessions_keepEverySubscription() {
        int sessions = 3 * ResourceMethods.SWEEP_FLOOR;
        for (int i = 0; i < sessions; i++) {
            live.add("live-" + i);
            subscribe("live-" + i);
        }
        assertThat(IntStream.range(0, sessions).allMatch(i -> resources.isSubscribed("live-" + i, OneResource.URI))).isTrue();
    }

    /** A provider of one small resource. */
    private static final class OneResource implements ResourceProvider {
        static final String URI = "test://one";

        @Override
        public List<ResourceDefinition> resources() {
            return List.of(new ResourceDefinition(URI, "one", "One", "one resource", "text/plain"));
        }

        @Override
        public Optional<List<JsonObject>> read(String uri, Principal principal) {
            return URI.equals(uri) ? Optional.of(List.of(Jsonp.object().add("uri", URI).add("text", "1").build()))
                    : Optional.empty();
        }
    }

    private McpResult subscribe(String sessionId) {
        McpSession session = new McpSession(sessionId, "anonymous", "2025-11-25", "test", Set.of(), "info", Instant.EPOCH);
        return resources.subscribe(new McpCall(Principal.anonymous(), Optional.of(session), ProtocolRevision.LATEST,
                "resources/subscribe", Jsonp.value(1), Jsonp.object().add("uri", OneResource.URI).build(),
                McpTransport.STREAMABLE_HTTP, message -> true));
    }
}
