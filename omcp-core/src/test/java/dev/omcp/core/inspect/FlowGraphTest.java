package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.T0;
import static dev.omcp.core.inspect.InspectFixtures.observation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.Observation;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlowGraphTest {
    private static final Duration WINDOW = Duration.ofHours(1);

    private static Observation call(String principal, String tool, Map<String, String> resources, Observation.Outcome outcome,
            Observation.Decision decision) {
        return observation(T0, principal, "acme", tool, resources, Map.of(), outcome, decision);
    }

    @Test
    void edgesRunFromPrincipalToToolToSource_withCallsErrorsWouldBlocksAndBlocks() {
        FlowGraph graph = new FlowGraph();
        graph.add(call("key:ci", "query_logs", Map.of("source", "loki"), Observation.Outcome.OK, Observation.Decision.ALLOW));
        graph.add(call("key:ci", "query_logs", Map.of("source", "loki"), Observation.Outcome.ERROR, Observation.Decision.ALLOW));
        graph.add(call("key:bot", "query_logs", Map.of("source", "loki"), Observation.Outcome.OK, Observation.Decision.WOULD_BLOCK));
        graph.add(call("key:ci", "query_metrics", Map.of(), Observation.Outcome.ERROR, Observation.Decision.BLOCKED));

        Flows flows = graph.build(WINDOW);

        assertThat(flows.nodes()).containsExactly(
                new Flows.Node("principal:key:ci", "principal", "key:ci", 3),
                new Flows.Node("source:loki", "source", "loki", 3),
                new Flows.Node("tool:query_logs", "tool", "query_logs", 3),
                new Flows.Node("principal:key:bot", "principal", "key:bot", 1),
                new Flows.Node("source:*", "source", "*", 1),
                new Flows.Node("tool:query_metrics", "tool", "query_metrics", 1));
        assertThat(flows.edges()).containsExactly(
                new Flows.Edge("tool:query_logs", "source:loki", 3, 1, 1, 0),
                new Flows.Edge("principal:key:ci", "tool:query_logs", 2, 1, 0, 0),
                new Flows.Edge("principal:key:bot", "tool:query_logs", 1, 0, 1, 0),
                new Flows.Edge("principal:key:ci", "tool:query_metrics", 1, 1, 0, 1),
                new Flows.Edge("tool:query_metrics", "source:*", 1, 1, 0, 1));
        assertThat(flows.observations()).isEqualTo(4);
        assertThat(flows.window()).isEqualTo(WINDOW);
    }

    @Test
    void beyond500Nodes_theLeastCalledFoldIntoOneNodePerKind_labelledWithHowMany() {
        FlowGraph graph = new FlowGraph();
        for (int i = 0; i < 600; i++) {
            String principal = String.format("key:p%03d", i);
            for (int calls = 0; calls <= (i == 599 ? 1 : 0); calls++) {
                graph.add(call(principal, "query_logs", Map.of("source", "loki"), Observation.Outcome.OK, Observation.Decision.ALLOW));
            }
        }

        Flows flows = graph.build(WINDOW);

        // spec 4.3 bound: 602 nodes; the tool, the source and the 497 most called principals stay, 103 fold into one
        assertThat(flows.nodes()).hasSize(FlowGraph.MAX_NODES);
        assertThat(flows.nodes().subList(0, 4)).extracting(Flows.Node::id)
                .containsExactly("source:loki", "tool:query_logs", "principal:(other)", "principal:key:p599");
        assertThat(flows.nodes().get(2)).isEqualTo(new Flows.Node("principal:(other)", "principal", "(other: 103)", 103));
        assertThat(flows.nodes()).extracting(Flows.Node::id).contains("principal:key:p495").doesNotContain("principal:key:p496");
        assertThat(flows.edges()).contains(new Flows.Edge("principal:(other)", "tool:query_logs", 103, 0, 0, 0))
                .hasSize(1 + 1 + 497);
    }

    @Test
    void aGraphThatFits_isNotFolded_evenWithANodeNamedOther() {
        FlowGraph graph = new FlowGraph();
        graph.add(call("key:ci", "(other)", Map.of(), Observation.Outcome.ERROR, Observation.Decision.ALLOW));

        assertThat(graph.build(WINDOW).nodes()).extracting(Flows.Node::label).containsExactly("key:ci", "*", "(other)");
    }
}
