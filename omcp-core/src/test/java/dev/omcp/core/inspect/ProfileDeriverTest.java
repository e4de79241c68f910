package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.T0;
import static dev.omcp.core.inspect.InspectFixtures.accepted;
import static dev.omcp.core.inspect.InspectFixtures.observation;
import static dev.omcp.core.inspect.InspectFixtures.sequentialIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.Provenance;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProfileDeriverTest {

    private static Instant at(int minutes) {
        return T0.plus(Duration.ofMinutes(minutes));
    }

    private static ProfileDeriver.Result derive(List<Rule> profile, List<Observation> observations) {
        ProfileDeriver deriver = new ProfileDeriver(profile);
        observations.forEach(deriver::add);
        return deriver.result(sequentialIds());
    }

    @Test
    void oneSuggestionPerPrincipalAndTool_listingTheSortedDistinctValuesAndBuckets() {
        ProfileDeriver.Result result = derive(List.of(), List.of(
                observation(at(0), "key:ci", "query_logs", Map.of("service", "checkout"), Map.of("limit", "num:<=100")),
                observation(at(1), "key:ci", "query_logs", Map.of("service", "cart", "namespace", "prod"), Map.of("limit", "num:<=10")),
                observation(at(2), "key:ci", "query_logs", Map.of("service", "cart"), Map.of()),
                observation(at(3), "key:ci", "query_metrics", Map.of(), Map.of("points", "num:<=100")),
                observation(at(4), "key:bot", "query_logs", Map.of(), Map.of())));

        assertThat(result.suggested()).extracting(Rule::subject, Rule::tool).containsExactly(
                org.assertj.core.groups.Tuple.tuple("key:bot", "query_logs"),
                org.assertj.core.groups.Tuple.tuple("key:ci", "query_logs"),
                org.assertj.core.groups.Tuple.tuple("key:ci", "query_metrics"));
        Rule logs = result.suggested().get(1);
        assertThat(logs.id()).isEqualTo("r-000000000002");
        assertThat(logs.status()).isEqualTo(RuleStatus.SUGGESTED);
        assertThat(logs.resources()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(
                "namespace", List.of("prod"), "service", List.of("cart", "checkout"))));
        assertThat(logs.args()).containsExactlyEntriesOf(Map.of("limit", List.of("num:<=10", "num:<=100")));
        assertThat(result.rules()).isEqualTo(result.suggested());
        assertThat(result.observations()).isEqualTo(5);
        assertThat(result.unchanged()).isZero();
    }

    @Test
    void provenance_isTheGroupSize_itsFirstAndLastTime_andNOverNPlus5RoundedToTwoDecimals() {
        ProfileDeriver.Result result = derive(List.of(), List.of(
                observation(at(5), "key:ci", "query_logs", Map.of(), Map.of()),
                observation(at(9), "key:ci", "query_logs", Map.of(), Map.of()),
                observation(at(7), "key:ci", "query_logs", Map.of(), Map.of()),
                observation(at(1), "key:bot", "query_logs", Map.of(), Map.of())));

        // spec 3.2: 3 observations, 3/8 = 0.375 -> 0.38; 1 observation, 1/6 = 0.1666 -> 0.17
        assertThat(result.suggested().get(1).provenance()).isEqualTo(new Provenance(3, at(5), at(9), 0.38));
        assertThat(result.suggested().get(0).provenance()).isEqualTo(new Provenance(1, at(1), at(1), 0.17));
    }

    @Test
    void moreThan64DistinctValues_leaveTheDimensionOut_andHalveTheConfidence() {
        List<Observation> many = new java.util.ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add(observation(at(i), "key:ci", "query_logs", Map.of("service", "svc-" + i, "namespace", "prod"),
                    Map.of("limit", "num:<=10")));
        }
        ProfileDeriver.Result result = derive(List.of(), many);

        Rule rule = result.suggested().getFirst();
        assertThat(rule.resources()).containsOnlyKeys("namespace");
        assertThat(rule.args()).containsOnlyKeys("limit");
        // 65/70 = 0.928 -> 0.93, halved once
        assertThat(rule.provenance().confidence()).isEqualTo(0.465);
    }

    @Test
    void exactly64DistinctValues_areKept() {
        List<Observation> many = new java.util.ArrayList<>();
        for (int i = 0; i < 64; i++) {
            many.add(observation(at(i), "key:ci", "query_logs", Map.of("service", "svc-" + i), Map.of()));
        }

        Rule rule = derive(List.of(), many).suggested().getFirst();

        assertThat(rule.resources().get("service")).hasSize(64);
        assertThat(rule.provenance().confidence()).isEqualTo(0.93);
    }

    @Test
    void eachDimensionLeftOut_halvesAgain_andAValueNoRuleCanHold_leavesItsDimensionOut() {
        List<Observation> many = new java.util.ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add(observation(at(i), "key:ci", "query_logs", Map.of("service", "svc-" + i), Map.of("limit", "num:" + i)));
        }
        many.add(observation(at(70), "key:ci", "query_logs", Map.of("namespace", " "), Map.of()));

        Rule rule = derive(List.of(), many).suggested().getFirst();

        assertThat(rule.resources()).isEmpty();
        assertThat(rule.args()).isEmpty();
        // 66/71 = 0.9295 -> 0.93, halved three times (service, namespace, limit)
        assertThat(rule.provenance().confidence()).isEqualTo(0.93 / 8);
    }

    @Test
    void onlyCallsThatWereAnsweredAndNotBlocked_teach() {
        ProfileDeriver.Result result = derive(List.of(), List.of(
                observation(at(0), "key:ci", "acme", "query_logs", Map.of("service", "a"), Map.of(), Observation.Outcome.ERROR,
                        Observation.Decision.ALLOW),
                observation(at(1), "key:ci", "acme", "query_logs", Map.of("service", "b"), Map.of(), Observation.Outcome.ERROR,
                        Observation.Decision.BLOCKED),
                observation(at(2), "key:ci", "acme", "query_logs", Map.of("service", "c"), Map.of(), Observation.Outcome.OK,
                        Observation.Decision.WOULD_BLOCK),
                observation(at(3), "key:ci", "acme", "query_logs", Map.of("service", "d"), Map.of(), Observation.Outcome.OK,
                        Observation.Decision.ALLOW)));

        assertThat(result.suggested()).singleElement().satisfies(rule -> {
            assertThat(rule.resources()).containsExactlyEntriesOf(Map.of("service", List.of("c", "d")));
            assertThat(rule.provenance().learnedFrom()).isEqualTo(2);
        });
        assertThat(result.observations()).as("every observation of the window is read").isEqualTo(4);
    }

    @Test
    void aGroupTheAcceptedRulesCoverAlready_isNotSuggested_butOneWithACallOutsideIs() {
        Rule cart = accepted("r-acc", "key:ci", "query_logs", Map.of("service", List.of("cart")), Map.of());

        ProfileDeriver.Result covered = derive(List.of(cart), List.of(
                observation(at(0), "key:ci", "query_logs", Map.of("service", "cart"), Map.of()),
                observation(at(1), "key:ci", "query_logs", Map.of(), Map.of())));
        ProfileDeriver.Result partly = derive(List.of(cart), List.of(
                observation(at(0), "key:ci", "query_logs", Map.of("service", "cart"), Map.of()),
                observation(at(1), "key:ci", "query_logs", Map.of("service", "payments"), Map.of())));

        assertThat(covered.suggested()).isEmpty();
        assertThat(covered.unchanged()).isEqualTo(1);
        assertThat(covered.rules()).containsExactly(cart);
        assertThat(partly.suggested()).singleElement().extracting(Rule::resources)
                .isEqualTo(Map.of("service", List.of("cart", "payments")));
        assertThat(partly.rules()).hasSize(2).first().isEqualTo(cart);
    }

    @Test
    void aGroupASingleRejectedRuleCovers_isNotSuggestedAgain_butOneWithANewCallIs() {
        Rule no = new Rule("r-no", "key:ci", "delete_things", Map.of("service", List.of("cart")), Map.of(), InspectFixtures.BY_HAND,
                RuleStatus.REJECTED);

        ProfileDeriver.Result same = derive(List.of(no), List.of(
                observation(at(0), "key:ci", "delete_things", Map.of("service", "cart"), Map.of())));
        ProfileDeriver.Result wider = derive(List.of(no), List.of(
                observation(at(0), "key:ci", "delete_things", Map.of("service", "cart"), Map.of()),
                observation(at(1), "key:ci", "delete_things", Map.of("service", "orders"), Map.of())));

        assertThat(same.suggested()).isEmpty();
        assertThat(same.unchanged()).isEqualTo(1);
        assertThat(wider.suggested()).hasSize(1);
        assertThat(wider.rules()).first().isEqualTo(no);
    }

    @Test
    void anEarlierSuggestionForTheSameSubjectAndTool_isReplacedInPlace_keepingItsId_acceptedAndRejectedUntouched() {
        Rule before = new Rule("r-old", "key:ci", "query_logs", Map.of("service", List.of("cart")), Map.of(), InspectFixtures.BY_HAND,
                RuleStatus.SUGGESTED);
        Rule twin = new Rule("r-twin", "key:ci", "query_logs", Map.of(), Map.of(), InspectFixtures.BY_HAND, RuleStatus.SUGGESTED);
        Rule kept = accepted("r-acc", "key:ci", "query_metrics", Map.of("service", List.of("cart")), Map.of());
        Rule rejected = new Rule("r-rej", "key:ci", "query_logs", Map.of("service", List.of("secret")), Map.of(),
                InspectFixtures.BY_HAND, RuleStatus.REJECTED);

        ProfileDeriver.Result result = derive(List.of(before, kept, twin, rejected), List.of(
                observation(at(0), "key:ci", "query_logs", Map.of("service", "checkout"), Map.of()),
                observation(at(1), "key:ci", "query_metrics", Map.of("service", "cart"), Map.of())));

        Rule replaced = result.suggested().getFirst();
        assertThat(replaced.id()).isEqualTo("r-old");
        assertThat(replaced.resources()).isEqualTo(Map.of("service", List.of("checkout")));
        assertThat(result.rules()).containsExactly(replaced, kept, rejected);
        assertThat(result.unchanged()).as("query_metrics is covered by the accepted rule").isEqualTo(1);
    }

    @Test
    void newIds_comeFromTheSupplier_skippingIdsInUse_andASupplierThatOnlyRepeats_isABug() {
        Rule existing = accepted("r-000000000001", "key:other", "x");
        ProfileDeriver deriver = new ProfileDeriver(List.of(existing));
        deriver.add(observation(at(0), "key:ci", "query_logs", Map.of(), Map.of()));

        assertThat(deriver.result(sequentialIds()).suggested().getFirst().id()).isEqualTo("r-000000000002");
        assertThatThrownBy(() -> deriver.result(() -> "r-000000000001"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already in use");
    }

    @Test
    void aPrincipalIdThatReadsAsAnotherKindOfSubject_isSkipped() {
        ProfileDeriver.Result result = derive(List.of(), List.of(observation(at(0), "role:admin", "query_logs", Map.of(), Map.of())));

        assertThat(result.suggested()).isEmpty();
        assertThat(result.skipped()).isEqualTo(1);
    }
}
