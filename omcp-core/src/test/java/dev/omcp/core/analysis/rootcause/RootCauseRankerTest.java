package dev.omcp.core.analysis.rootcause;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import dev.omcp.core.analysis.topology.ClusterFixture;
import dev.omcp.core.analysis.topology.TopologyGraph;
import dev.omcp.sdk.query.Relation;
import dev.omcp.sdk.query.Topology;
import dev.omcp.sdk.query.TopologyEdge;
import dev.omcp.sdk.query.TopologyNode;
import jakarta.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RootCauseRankerTest {
    private static final Instant T = Instant.parse("2025-03-10T10:00:00Z");
    private final RootCauseRanker ranker = new RootCauseRanker();
    private final Optional<TopologyGraph> topology = Optional.of(ClusterFixture.merged());

    private static AnomalousService svc(String name, int minute, double severity) {
        return new AnomalousService(name, T.plusSeconds(60L * minute), severity, List.of("latency_p99"));
    }

    @Test
    void cascade_ranksTheDependedOnEarliestServiceFirstWithEachFactorsContribution() {
        RootCauseRanking r = ranker.rank(List.of(svc("web", 3, 5), svc("api", 2, 8), svc("db", 0, 6)), topology);
        assertThat(r.topologyUsed()).isTrue();
        assertThat(r.ranking()).extracting(RankedCause::service).containsExactly("db", "api", "web");
        RankedCause db = r.ranking().getFirst();
        assertThat(db.dependents()).containsExactlyInAnyOrder("api", "web");
        assertThat(db.factors()).extracting(Factor::name).containsExactly("dependents", "onset", "severity");
        assertThat(db.factors().get(0).contribution()).isCloseTo(0.45, offset(1e-9));
        assertThat(db.factors().get(1).contribution()).isCloseTo(0.35, offset(1e-9));
        assertThat(db.factors().get(2).contribution()).isCloseTo(0.2 * 6 / 8, offset(1e-9));
        assertThat(db.score()).isCloseTo(0.95, offset(1e-9));
        RankedCause api = r.ranking().get(1);
        assertThat(api.dependents()).containsExactly("web");
        assertThat(api.score()).isCloseTo(0.225 + 0.35 / 3 + 0.2, offset(1e-9));
        assertThat(db.explanation()).contains("2 of 2 other anomalous services depend on it (+0.45)").contains("first to deviate");
    }

    @Test
    void manyDependents_outweighAOneMinuteLaterOnset() {
        RootCauseRanking r = ranker.rank(List.of(svc("api", 0, 5), svc("db", 1, 5), svc("web", 2, 5)), topology);
        assertThat(r.ranking().getFirst().service()).isEqualTo("db");
    }

    @Test
    void withoutTopology_onsetAndSeverityShareTheWeightAndTheNoteSaysSo() {
        RootCauseRanking r = ranker.rank(List.of(svc("web", 3, 5), svc("api", 2, 8), svc("db", 0, 6)), Optional.empty());
        assertThat(r.topologyUsed()).isFalse();
        assertThat(r.note()).contains("no topology available");
        RankedCause first = r.ranking().getFirst();
        assertThat(first.service()).isEqualTo("db");
        assertThat(first.factors()).extracting(Factor::name).containsExactly("onset", "severity");
        assertThat(first.factors().get(0).weight()).isCloseTo(0.35 / 0.55, offset(1e-9));
        assertThat(first.score()).isCloseTo(0.35 / 0.55 + 0.2 / 0.55 * 6 / 8, offset(1e-9));
    }

    @Test
    void serviceOutsideTheTopology_isNamedAndGetsNoDependents() {
        RootCauseRanking r = ranker.rank(List.of(svc("db", 0, 6), svc("payments", 0, 6), svc("api", 1, 6)), topology);
        assertThat(r.notInTopology()).containsExactly("payments");
        assertThat(r.note()).contains("not in the topology: payments");
        RankedCause payments = r.ranking().stream().filter(c -> c.service().equals("payments")).findFirst().orElseThrow();
        assertThat(payments.factors().getFirst().detail()).isEqualTo("not in the topology");
        assertThat(payments.factors().getFirst().value()).isZero();
    }

    @Test
    void singleService_isTheOnlyCandidate() {
        RootCauseRanking r = ranker.rank(List.of(svc("db", 0, 6)), topology);
        assertThat(r.ranking()).singleElement().extracting(RankedCause::rank).isEqualTo(1);
        assertThat(r.note()).contains("only candidate");
    }

    @Test
    void severalFindingsOfOneService_combineToEarliestOnsetAndStrongestScore() {
        RootCauseRanking r = ranker.rank(List.of(
                new AnomalousService("db", T.plusSeconds(300), 4, List.of("error_rate")),
                new AnomalousService("db", T, 9, List.of("latency_p99")),
                svc("api", 1, 3)), Optional.empty());
        RankedCause db = r.ranking().getFirst();
        assertThat(db.service()).isEqualTo("db");
        assertThat(db.explanation()).contains("error_rate, latency_p99").contains("first to deviate, at " + T);
    }

    @Test
    void aHugeScoreFromABaselineThatWasExactlyZero_doesNotOutrankTheServiceThatDeviatedFirst() {
        // an error rate that was exactly 0 has the scale floor 1e-9 as its sigma, so 2 % errors read 2e7 sigma; counted
        // in full it took the whole severity weight and ranked the later frontend above the database that began first
        RootCauseRanking r = ranker.rank(List.of(svc("db", 0, 50), svc("frontend", 1, 2e7), svc("cache", 5, 8)), Optional.empty());

        assertThat(r.ranking()).extracting(RankedCause::service).startsWith("db", "frontend");
        RankedCause frontend = r.ranking().get(1);
        Factor severity = frontend.factors().get(1);
        assertThat(severity.value()).isEqualTo(1.0);
        assertThat(severity.detail()).isEqualTo("strongest anomaly 2.00e+07 sigma, counted as 20.0 (max 20.0)");
        assertThat(r.ranking().getFirst().factors().get(1).value()).as("50 sigma is as unmistakable").isEqualTo(1.0);
        assertThat(r.ranking().get(2).factors().get(1).value()).isCloseTo(8 / 20.0, offset(1e-9));
    }

    /**
     * Ties go to the earlier onset (docs/analysis.md, "Root-cause ranking"). Scores that are equal in exact arithmetic
     * come out of the weighted sum one rounding apart: b (onset 0.8, severity 16 of 20) summed to 0.8 and a (onset 1,
     * severity 9 of 20) to 0.7999999999999998, so b, which began two minutes later, ranked first with the same score
     * shown.
     */
    @Test
    void scoresEqualButForRounding_areTiesThatGoToTheEarlierOnset() {
        RootCauseRanking r = ranker.rank(List.of(svc("b", 2, 16), svc("a", 0, 9), svc("c", 10, 20)), Optional.empty());

        assertThat(r.ranking()).extracting(RankedCause::service).containsExactly("a", "b", "c");
        assertThat(r.ranking().get(0).score()).isCloseTo(r.ranking().get(1).score(), offset(1e-12));
    }

    /** Every exact tie on a grid of onsets (minutes 0-10) and severities (1-20 sigma) goes to the earlier onset. */
    @Test
    void everyExactTieOnAGrid_goesToTheEarlierOnset() {
        List<String> wrong = new ArrayList<>();
        for (int laterMinute = 1; laterMinute < 10; laterMinute++) {
            for (int earlierMinute = 0; earlierMinute < laterMinute; earlierMinute++) {
                for (int laterSigma = 1; laterSigma <= 20; laterSigma++) {
                    for (int earlierSigma = 1; earlierSigma <= 20; earlierSigma++) {
                        // exact scores in units of 0.35 / 10 minutes and 0.20 / 20 sigma: 7 per minute earlier, 2 per sigma
                        if (7 * (10 - laterMinute) + 2 * laterSigma != 7 * (10 - earlierMinute) + 2 * earlierSigma) {
                            continue;
                        }
                        RootCauseRanking r = ranker.rank(List.of(svc("later", laterMinute, laterSigma),
                                svc("earlier", earlierMinute, earlierSigma), svc("last", 10, 20)), Optional.empty());
                        if (indexOf(r, "earlier") > indexOf(r, "later")) {
                            wrong.add("later@" + laterMinute + "m/" + laterSigma + " vs earlier@" + earlierMinute + "m/" + earlierSigma);
                        }
                    }
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    private static int indexOf(RootCauseRanking r, String service) {
        return r.ranking().stream().map(RankedCause::service).toList().indexOf(service);
    }

    @Test
    void emptyInput_givesAnEmptyRankingWithANote() {
        assertThat(ranker.rank(List.of(), topology).note()).isEqualTo("no anomalous services to rank");
    }

    @Test
    void invalidSeverity_isRefused() {
        assertThatThrownBy(() -> new AnomalousService("db", T, Double.NaN, List.of())).hasMessageContaining("severity of db");
        assertThatThrownBy(() -> new AnomalousService("db", T, 0, List.of())).hasMessageContaining("> 0");
    }

    @Test
    void toJson_listsRankedCausesWithFactors() {
        JsonObject json = ranker.rank(List.of(svc("api", 2, 8), svc("db", 0, 6)), topology).toJson();
        assertThat(json.getJsonArray("rootCauses")).hasSize(2);
        JsonObject first = json.getJsonArray("rootCauses").getJsonObject(0);
        assertThat(first.getString("service")).isEqualTo("db");
        assertThat(first.getJsonArray("factors").getJsonObject(0).keySet()).containsExactly("name", "value", "weight", "contribution", "detail");
        assertThat(json.getBoolean("topologyUsed")).isTrue();
    }

    /**
     * A database run by a statefulset of 3000 pods (each with a container), called by api, called
     * by frontend, called by edge: edge is four calls away, behind the 6000 pods and containers of
     * the walk. The dependents were read from the walk's listed nodes, capped at 5000, so edge was
     * not counted among db's dependents, and db lost the dependents factor it had earned.
     */
    @Test
    void aDependentBeyondTheListCapOfTheWalk_stillCounts() {
        List<TopologyNode> nodes = new ArrayList<>();
        List<TopologyEdge> edges = new ArrayList<>();
        for (String s : List.of("db", "api", "frontend", "edge")) {
            nodes.add(new TopologyNode("service/shop/" + s, "service", s, "shop", Map.of()));
        }
        nodes.add(new TopologyNode("statefulset/shop/db", "statefulset", "db", "shop", Map.of()));
        for (int i = 0; i < 3000; i++) {
            nodes.add(new TopologyNode("pod/shop/db-" + i, "pod", "db-" + i, "shop", Map.of()));
            nodes.add(new TopologyNode("container/shop/db-" + i + "/db", "container", "db", "shop", Map.of()));
            edges.add(new TopologyEdge("pod/shop/db-" + i, "statefulset/shop/db", Relation.OWNED_BY));
            edges.add(new TopologyEdge("pod/shop/db-" + i, "container/shop/db-" + i + "/db", Relation.CONTAINS));
        }
        edges.add(new TopologyEdge("service/shop/api", "service/shop/db", Relation.CALLS));
        edges.add(new TopologyEdge("service/shop/frontend", "service/shop/api", Relation.CALLS));
        edges.add(new TopologyEdge("service/shop/edge", "service/shop/frontend", Relation.CALLS));
        TopologyGraph large = TopologyGraph.of("kubernetes", new Topology(nodes, edges));

        RootCauseRanking r = ranker.rank(List.of(svc("edge", 2, 5), svc("db", 0, 5)), Optional.of(large));

        assertThat(r.ranking().getFirst().service()).isEqualTo("db");
        assertThat(r.ranking().getFirst().dependents()).containsExactly("edge");
    }
}
