package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelectedPodsTest {
    private static Resource pod(String namespace, String name, Map<String, String> labels) {
        return new Resource("pod", namespace, name, labels, List.of(), "", Map.of(), List.of(), Map.of(), "1");
    }

    private final SelectedPods pods = new SelectedPods(List.of(
            pod("prod", "api-a", Map.of("app", "api", "tier", "web")),
            pod("prod", "api-b", Map.of("app", "api", "tier", "web", "canary", "true")),
            pod("prod", "db-0", Map.of("app", "db", "tier", "data")),
            pod("dev", "api-a", Map.of("app", "api", "tier", "web")),
            pod("prod", "bare", Map.of())));

    private List<String> names(String namespace, Map<String, String> selector) {
        return pods.of(namespace, selector).stream().map(r -> r.namespace() + "/" + r.name()).sorted().toList();
    }

    @Test
    void aSelectorSelectsThePodsOfItsNamespaceThatCarryEveryOneOfItsLabels() {
        assertThat(names("prod", Map.of("app", "api"))).containsExactly("prod/api-a", "prod/api-b");
        assertThat(names("prod", Map.of("app", "api", "canary", "true"))).containsExactly("prod/api-b");
        assertThat(names("prod", Map.of("tier", "web", "app", "db"))).isEmpty();
        assertThat(names("dev", Map.of("app", "api"))).containsExactly("dev/api-a");
    }

    @Test
    void anEmptySelector_orALabelNoPodCarries_selectsNone() {
        assertThat(names("prod", Map.of())).isEmpty();
        assertThat(names("prod", Map.of("app", "api", "missing", "x"))).isEmpty();
        assertThat(names("staging", Map.of("app", "api"))).isEmpty();
    }
}
