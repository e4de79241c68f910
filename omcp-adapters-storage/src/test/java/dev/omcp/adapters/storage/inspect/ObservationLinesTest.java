package dev.omcp.adapters.storage.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Observation;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ObservationLinesTest {
    private static final Observation WITH_ROLES = new Observation(Instant.parse("2026-03-01T10:15:02.118Z"), "user:alice", "session",
            "acme", Set.of("operator", "auditor"), Set.of("payments"), "query_logs", Map.of("service", "checkout"),
            Map.of("limit", "num:<=100"), Observation.Outcome.OK, 41, Observation.Decision.WOULD_BLOCK);

    private static Optional<Observation> parse(String line) {
        return ObservationLines.parse(line.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void rolesAndProducts_areWrittenAndReadBack() {
        String line = new String(ObservationLines.line(WITH_ROLES), StandardCharsets.UTF_8);

        assertThat(line).contains("\"roles\":[\"auditor\",\"operator\"]").contains("\"products\":[\"payments\"]").endsWith("}\n");
        assertThat(parse(line.strip())).contains(WITH_ROLES);
    }

    @Test
    void aLineWrittenBeforeRolesAndProductsWereKept_readsWithNone() {
        // the example record of docs/inspect.md part one: no roles, no products
        Optional<Observation> read = parse("{\"ts\":\"2026-03-01T10:15:02.118Z\",\"principal\":\"key:ci-bot\",\"authKind\":\"api_key\","
                + "\"tenant\":\"acme\",\"tool\":\"query_logs\",\"resources\":{\"service\":\"checkout\"},\"args\":{\"limit\":\"num:<=100\"},"
                + "\"outcome\":\"ok\",\"latencyMs\":41,\"decision\":\"allow\"}");

        assertThat(read).hasValueSatisfying(observation -> {
            assertThat(observation.principal()).isEqualTo("key:ci-bot");
            assertThat(observation.roles()).isEmpty();
            assertThat(observation.products()).isEmpty();
            assertThat(observation.resources()).containsExactly(Map.entry("service", "checkout"));
        });
    }

    @Test
    void rolesOrProductsOfAnotherShape_makeTheLineForeign() {
        String good = new String(ObservationLines.line(WITH_ROLES), StandardCharsets.UTF_8).strip();

        assertThat(parse(good.replace("\"roles\":[\"auditor\",\"operator\"]", "\"roles\":\"operator\""))).isEmpty();
        assertThat(parse(good.replace("\"products\":[\"payments\"]", "\"products\":[7]"))).isEmpty();
        assertThat(parse(good.replace("\"products\":[\"payments\"]", "\"products\":[null]"))).isEmpty();
    }

    @Test
    void tornAndForeignLines_areNotObservations() {
        assertThat(parse("{\"ts\":\"2026-03-01T08:0")).isEmpty();
        assertThat(parse("not json at all")).isEmpty();
        assertThat(parse("[1,2,3]")).isEmpty();
        assertThat(parse("")).isEmpty();
    }
}
