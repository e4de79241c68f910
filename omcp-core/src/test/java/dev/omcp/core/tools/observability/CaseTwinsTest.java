package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyNode;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class CaseTwinsTest {
    private static final Pattern RETRY = Pattern.compile("with (\\{.*})\\.$");

    private static TopologyGraph twins(String lower, String upper) {
        return TopologyGraph.merge(Map.of(
                "kubernetes", new Topology(List.of(new TopologyNode(lower, "service", lower.substring(lower.lastIndexOf('/') + 1), "prod",
                        Map.of())), List.of()),
                "traces", new Topology(List.of(new TopologyNode(upper, "service", upper.substring(upper.lastIndexOf('/') + 1), "prod",
                        Map.of())), List.of())));
    }

    @Test
    void theCallOfferedForATwin_isJsonThatNamesItsIdExactly() {
        // a plugin's trace source keeps the SDK's spelling, which may hold a quote or a backslash: the note's call must
        // still be JSON an agent can send, naming that id
        String twin = "service/prod/A\"P\\I";
        String note = CaseTwins.note(twins("service/prod/a\"p\\i", twin), List.of("service/prod/a\"p\\i"), "get_blast_radius",
                "resource").orElseThrow();

        Matcher retry = RETRY.matcher(note);
        assertThat(retry.find()).as(note).isTrue();
        JsonObject call = Jsonp.provider().createReader(new StringReader(retry.group(1))).readObject();
        assertThat(call.getString("resource")).isEqualTo(twin);
    }
}
