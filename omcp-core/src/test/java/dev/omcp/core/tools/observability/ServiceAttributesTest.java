package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.query.ServiceInfo;
import jakarta.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ServiceAttributesTest {
    private static List<ServiceInfo> listings(int count) {
        List<ServiceInfo> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new ServiceInfo("redis", Map.of("namespace", String.format(java.util.Locale.ROOT, "ns%05d", i), "type", "ClusterIP")));
        }
        return out;
    }

    @Test
    void aSourceListingOneNameThousandsOfTimes_hasOnlyTheListingsShownRedacted_theFirstBySortedAttributes() {
        AtomicInteger redacted = new AtomicInteger();
        UnaryOperator<String> counting = text -> {
            redacted.incrementAndGet();
            return text;
        };
        List<ServiceInfo> listed = listings(10_000);
        ServiceAttributes attributes = new ServiceAttributes(counting);
        // listed last first: the answer does not depend on the order a source lists in
        listed.reversed().forEach(s -> attributes.add("kubernetes", s));

        JsonObject said = attributes.of("redis").orElseThrow();

        assertThat(said.getJsonArray("kubernetes").getValuesAs(JsonObject.class)).extracting(l -> l.getString("namespace"))
                .containsExactly("ns00000", "ns00001", "ns00002", "ns00003", "ns00004");
        // each distinct name and value of the listings shown, once: namespace and type, five namespaces and ClusterIP
        assertThat(redacted).hasValue(2 + ServiceAttributes.MAX_LISTINGS + 1);
        assertThat(attributes.note()).get().asString().contains("redis");
    }

    @Test
    void aNameRedactionWouldChange_isLeftOut_notShownChanged() {
        ServiceAttributes attributes = new ServiceAttributes(text -> text.replace("ghp_secret", "[REDACTED:token]"));
        attributes.add("plugin", new ServiceInfo("payments", Map.of("ghp_secret", "1", "targets", "3")));

        assertThat(attributes.of("payments").orElseThrow().toString()).isEqualTo("{\"plugin\":[{\"targets\":3}]}");
        assertThat(attributes.note()).get().asString().contains("payments");
    }

    @Test
    void aServiceNoSourceSaidAnythingShowableAbout_hasNoAttributes_andAQuietAnswerHasNoNote() {
        ServiceAttributes attributes = new ServiceAttributes(UnaryOperator.identity());
        attributes.add("zipkin", new ServiceInfo("payments", Map.of()));
        attributes.add("plugin", new ServiceInfo("checkout", Map.of("not an identifier", "x")));

        assertThat(attributes.of("payments")).isEmpty();
        assertThat(attributes.note()).isEmpty();
        assertThat(attributes.of("checkout")).isEmpty();
        assertThat(attributes.note()).get().asString().contains("checkout");
        assertThat(attributes.of("unknown")).isEmpty();
    }
}
