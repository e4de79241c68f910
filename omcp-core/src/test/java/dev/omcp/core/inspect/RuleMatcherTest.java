package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.T0;
import static dev.omcp.core.inspect.InspectFixtures.accepted;
import static dev.omcp.core.inspect.InspectFixtures.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.Rule;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RuleMatcherTest {
    private static final Rule CHECKOUT_LOGS = accepted("r-1", "key:ci", "query_logs",
            Map.of("service", List.of("checkout", "cart")), Map.of("limit", List.of("num:<=100")));
    private final RuleMatcher matcher = RuleMatcher.of(List.of(CHECKOUT_LOGS));

    private static Coverage.Deviates deviates(Coverage coverage) {
        assertThat(coverage).isInstanceOf(Coverage.Deviates.class);
        return (Coverage.Deviates) coverage;
    }

    @Test
    void callInsideEveryListedDimensionAndArgument_isCoveredByTheRule() {
        Coverage coverage = matcher.evaluate(call("key:ci", "query_logs", Map.of("service", "cart"), Map.of("limit", "num:<=100")));

        assertThat(coverage).isEqualTo(new Coverage.Covered(CHECKOUT_LOGS));
    }

    @Test
    void dimensionsAndArgumentsTheRuleDoesNotList_areUnconstrained() {
        Coverage coverage = matcher.evaluate(call("key:ci", "query_logs", Map.of("service", "cart", "namespace", "prod"),
                Map.of("limit", "num:<=100", "filter", "text:len<=64:lower")));

        assertThat(coverage).isInstanceOf(Coverage.Covered.class);
    }

    @Test
    void aCallThatNamesNoValueForAListedDimensionOrArgument_isCoveredOnIt() {
        // the tool then uses its default sources; an argument not sent has no bucket to be outside
        assertThat(matcher.evaluate(call("key:ci", "query_logs", Map.of(), Map.of()))).isInstanceOf(Coverage.Covered.class);
    }

    @Test
    void noRuleForTheCaller_isNewPrincipal_naming_itsIdRolesAndProducts() {
        Coverage.Deviates d = deviates(matcher.evaluate(new CallSignature("key:other", Set.of("viewer"), Set.of(), "query_logs",
                Map.of(), Map.of())));

        assertThat(d.kind()).isEqualTo(Deviation.Kind.NEW_PRINCIPAL);
        assertThat(d.detail()).isEqualTo("no accepted rule's subject matches key:other (roles: viewer; products: none)");
    }

    @Test
    void rulesForTheCallerButNotThisTool_isNewTool() {
        Coverage.Deviates d = deviates(matcher.evaluate(call("key:ci", "query_metrics", Map.of(), Map.of())));

        assertThat(d.kind()).isEqualTo(Deviation.Kind.NEW_TOOL);
        assertThat(d.detail()).isEqualTo("no accepted rule for this caller names tool \"query_metrics\"");
    }

    @Test
    void aResourceValueOutsideTheRule_isNewResource_naming_theDimensionValueAndAllowedValues() {
        Coverage.Deviates d = deviates(matcher.evaluate(call("key:ci", "query_logs", Map.of("service", "payments"),
                Map.of("limit", "num:more"))));

        // the resource is the wider reason: the argument is not reported while no rule covers the resources
        assertThat(d.kind()).isEqualTo(Deviation.Kind.NEW_RESOURCE);
        assertThat(d.detail()).isEqualTo("service \"payments\" is not in [cart, checkout]");
    }

    @Test
    void anArgumentBucketOutsideARuleThatCoversTheResources_isArgOutOfRange() {
        Coverage.Deviates d = deviates(matcher.evaluate(call("key:ci", "query_logs", Map.of("service", "cart"),
                Map.of("limit", "num:more", "filter", "text:len<=16:lower"))));

        assertThat(d.kind()).isEqualTo(Deviation.Kind.ARG_OUT_OF_RANGE);
        assertThat(d.detail()).isEqualTo("argument limit bucket \"num:more\" is not in [num:<=100]");
    }

    @Test
    void oneRuleCoveringTheResources_makesItArgOutOfRange_evenWhenAnotherRuleFailsOnResources() {
        Rule payments = accepted("r-2", "key:ci", "query_logs", Map.of("service", List.of("payments")), Map.of());
        Rule cartSmall = accepted("r-3", "key:ci", "query_logs", Map.of("service", List.of("cart")),
                Map.of("limit", List.of("num:<=10")));
        RuleMatcher two = RuleMatcher.of(List.of(payments, cartSmall));

        Coverage.Deviates d = deviates(two.evaluate(call("key:ci", "query_logs", Map.of("service", "cart"), Map.of("limit", "num:more"))));

        assertThat(d.kind()).isEqualTo(Deviation.Kind.ARG_OUT_OF_RANGE);
        assertThat(d.detail()).isEqualTo("argument limit bucket \"num:more\" is not in [num:<=10]");
    }

    @Test
    void newResourceDetail_comesFromTheRuleWithTheFewestDimensionsOutside() {
        Rule far = accepted("r-1", "key:ci", "query_logs", Map.of("service", List.of("a"), "namespace", List.of("x")), Map.of());
        Rule near = accepted("r-2", "key:ci", "query_logs", Map.of("service", List.of("b"), "namespace", List.of("prod")), Map.of());

        Coverage.Deviates d = deviates(RuleMatcher.of(List.of(far, near)).evaluate(call("key:ci", "query_logs",
                Map.of("service", "c", "namespace", "prod"), Map.of())));

        assertThat(d.detail()).isEqualTo("service \"c\" is not in [b]");
    }

    @Test
    void roleProductAndAnyoneSubjects_matchCallersHoldingThem() {
        Rule byRole = accepted("r-role", "role:sre", "query_logs");
        Rule byProduct = accepted("r-product", "product:obs", "query_metrics");
        Rule anyone = accepted("r-any", "*", "list_sources");
        RuleMatcher rules = RuleMatcher.of(List.of(byRole, byProduct, anyone));

        assertThat(rules.evaluate(new CallSignature("user:alice", Set.of("sre"), Set.of(), "query_logs", Map.of(), Map.of())))
                .isEqualTo(new Coverage.Covered(byRole));
        assertThat(rules.evaluate(new CallSignature("key:ci", Set.of(), Set.of("obs"), "query_metrics", Map.of(), Map.of())))
                .isEqualTo(new Coverage.Covered(byProduct));
        assertThat(rules.evaluate(call("anonymous", "list_sources", Map.of(), Map.of()))).isEqualTo(new Coverage.Covered(anyone));
        // a * rule matches everyone's subject: another tool is new-tool, not new-principal
        assertThat(deviates(rules.evaluate(call("anonymous", "query_logs", Map.of(), Map.of()))).kind())
                .isEqualTo(Deviation.Kind.NEW_TOOL);
    }

    @Test
    void aRoleRule_doesNotMatchACallerWithoutTheRole_norAPrincipalIdThatLooksLikeIt() {
        RuleMatcher rules = RuleMatcher.of(List.of(accepted("r-role", "role:sre", "query_logs")));

        assertThat(deviates(rules.evaluate(new CallSignature("user:bob", Set.of("viewer"), Set.of(), "query_logs", Map.of(),
                Map.of()))).kind()).isEqualTo(Deviation.Kind.NEW_PRINCIPAL);
        assertThat(deviates(rules.evaluate(call("role:sre", "query_logs", Map.of(), Map.of()))).kind())
                .isEqualTo(Deviation.Kind.NEW_PRINCIPAL);
    }

    @Test
    void aStoredObservation_isEvaluatedWithTheRolesAndProductsItRecorded() {
        RuleMatcher rules = RuleMatcher.of(List.of(accepted("r-role", "role:sre", "query_logs")));
        Observation stored = new Observation(T0, "user:alice", "session", "", Set.of("sre"), Set.of(), "query_logs",
                Map.of("service", "cart"), Map.of(), Observation.Outcome.OK, 3, Observation.Decision.ALLOW);

        assertThat(rules.evaluate(CallSignature.of(stored))).isInstanceOf(Coverage.Covered.class);
    }

    @Test
    void noRules_everyCallIsNewPrincipal() {
        assertThat(deviates(RuleMatcher.of(List.of()).evaluate(call("key:ci", "query_logs", Map.of(), Map.of()))).kind())
                .isEqualTo(Deviation.Kind.NEW_PRINCIPAL);
    }

    @Test
    void covering_listsEveryCoveringRuleInProfileOrder() {
        Rule wide = accepted("r-9", "*", "query_logs");
        Rule exact = accepted("r-1", "key:ci", "query_logs", Map.of("service", List.of("cart")), Map.of());
        Rule other = accepted("r-5", "key:ci", "query_logs", Map.of("service", List.of("payments")), Map.of());

        assertThat(RuleMatcher.of(List.of(wide, exact, other)).covering(call("key:ci", "query_logs", Map.of("service", "cart"), Map.of())))
                .containsExactly(wide, exact);
    }

    @Test
    void aLongListOfAllowedValues_isCutInTheDetail() {
        List<String> many = IntStream.range(0, 12).mapToObj(i -> "s" + (char) ('a' + i)).toList();

        assertThat(RuleMatcher.listed(many)).isEqualTo("[sa, sb, sc, sd, se, sf, sg, sh, si, sj, ... (2 more)]");
        assertThat(RuleMatcher.listed(List.of("b", "a"))).isEqualTo("[a, b]");
    }
}
