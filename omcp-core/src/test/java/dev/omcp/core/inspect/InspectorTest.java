package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.T0;
import static dev.omcp.core.inspect.InspectFixtures.accepted;
import static dev.omcp.core.inspect.InspectFixtures.observation;
import static dev.omcp.core.inspect.InspectFixtures.sequentialIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.inspect.Derivation;
import dev.omcp.ports.inspect.Deviation;
import dev.omcp.ports.inspect.DeviationReport;
import dev.omcp.ports.inspect.Flows;
import dev.omcp.ports.inspect.InspectMode;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.ModeChange;
import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ProfileStore;
import dev.omcp.ports.inspect.Rule;
import dev.omcp.ports.inspect.RuleChange;
import dev.omcp.ports.inspect.RuleEdit;
import dev.omcp.ports.inspect.RuleStatus;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InspectorTest {
    private static final Entitlements ENTITLED = feature -> Optional.empty();
    private static final Duration WINDOW = Duration.ofHours(1);
    private static final Rule CART = accepted("r-cart", "key:ci", "query_logs", Map.of("service", List.of("cart")), Map.of());

    @RegisterExtension
    final CapturedLog log = new CapturedLog(Inspector.class);

    private final ManualClock clock = new ManualClock(T0);
    private final MemoryObservations store = new MemoryObservations(100);

    private Inspector inspector(InspectMode start, ProfileStore profile, Entitlements entitlements) {
        return new Inspector(start, store, profile, entitlements, clock, WINDOW, sequentialIds());
    }

    private Inspector observing(ProfileStore profile) {
        return inspector(InspectMode.OBSERVE, profile, ENTITLED);
    }

    private void seen(String principal, String tenant, String service) {
        store.append(observation(clock.instant(), principal, tenant, "query_logs", Map.of("service", service), Map.of(),
                Observation.Outcome.OK, Observation.Decision.ALLOW));
    }

    /** A store that holds its rules but cannot save: the disk is full. */
    private static final class FailingSave implements ProfileStore {
        private final List<Rule> rules;

        FailingSave(List<Rule> rules) {
            this.rules = rules;
        }

        @Override
        public List<Rule> load() {
            return rules;
        }

        @Override
        public void save(List<Rule> newRules) {
            throw new ProfileStoreException("cannot write /var/lib/omcp/profile.yaml: No space left on device");
        }

        @Override
        public String storage() {
            return "file";
        }
    }

    @Test
    void startInEnforce_withoutTheEntitlement_runsInDryrunAndWarns() {
        Inspector inspector = inspector(InspectMode.ENFORCE, new MemoryProfile(List.of(CART)), Entitlements.none());

        // spec 3.1: without inspect-enforce the gateway keeps running in dryrun
        assertThat(inspector.status().mode()).isEqualTo(InspectMode.DRYRUN);
        assertThat(log.messages(Level.WARN)).singleElement().asString()
                .contains("event=inspect-enforce-not-entitled", "mode=dryrun", "no entitlement is installed");
    }

    @Test
    void startInEnforce_withTheEntitlementButNoAcceptedRule_refusesToStart() {
        Rule suggested = CART.withStatus(RuleStatus.SUGGESTED);

        assertThatThrownBy(() -> inspector(InspectMode.ENFORCE, new MemoryProfile(List.of(suggested)), ENTITLED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OMCP_INSPECT=enforce would block every tool call")
                .hasMessageContaining("holds no accepted rule").hasMessageContaining("OMCP_INSPECT=dryrun");
    }

    @Test
    void startInEnforce_withTheEntitlementAndAnAcceptedRule_enforces() {
        assertThat(inspector(InspectMode.ENFORCE, new MemoryProfile(List.of(CART)), ENTITLED).status().mode())
                .isEqualTo(InspectMode.ENFORCE);
    }

    @Test
    void aProfileThatCannotBeLoaded_refusesToStart() {
        ProfileStore unreadable = new ProfileStore() {
            @Override
            public List<Rule> load() {
                throw new ProfileStoreException("profile.yaml line 3: unknown field \"tools\"");
            }

            @Override
            public void save(List<Rule> rules) {
                throw new AssertionError("not saved");
            }

            @Override
            public String storage() {
                return "file";
            }
        };

        assertThatThrownBy(() -> observing(unreadable)).isInstanceOf(ProfileStore.ProfileStoreException.class)
                .hasMessageContaining("line 3");
        assertThatThrownBy(() -> observing(new MemoryProfile(List.of(CART, CART))))
                .isInstanceOf(ProfileStore.ProfileStoreException.class).hasMessageContaining("r-cart more than once");
    }

    @Test
    void dryrun_isAlwaysAllowed_evenWithAnEmptyProfile() {
        Inspector inspector = observing(new MemoryProfile());

        assertThat(inspector.changeMode(InspectMode.DRYRUN)).isEqualTo(new ModeChange.Changed(InspectMode.OBSERVE, InspectMode.DRYRUN));
    }

    @Test
    void enforce_needsTheEntitlementFirst_thenAnAcceptedRule() {
        Inspector unentitled = inspector(InspectMode.OBSERVE, new MemoryProfile(), Entitlements.none());
        Inspector entitled = observing(new MemoryProfile());

        // DECISIONS.md: 403 OMCP_ENTITLEMENT_REQUIRED comes first, even when no rule is accepted either
        assertThat(unentitled.changeMode(InspectMode.ENFORCE)).isInstanceOf(ModeChange.EntitlementRequired.class);
        ModeChange noRules = entitled.changeMode(InspectMode.ENFORCE);
        assertThat(noRules).isInstanceOf(ModeChange.NoAcceptedRules.class);
        assertThat(((ModeChange.NoAcceptedRules) noRules).message()).contains("Accept rules first", "use dryrun");
        assertThat(entitled.status().mode()).isEqualTo(InspectMode.OBSERVE);

        seen("key:ci", "acme", "cart");
        Rule suggestion = ((Derivation.Derived) entitled.derive(WINDOW)).suggested().getFirst();
        entitled.changeRule(suggestion.id(), new RuleEdit.Review(RuleStatus.ACCEPTED));

        assertThat(entitled.changeMode(InspectMode.ENFORCE)).isEqualTo(new ModeChange.Changed(InspectMode.OBSERVE, InspectMode.ENFORCE));
    }

    @Test
    void derive_suggestsFromTheWindow_savesTheProfile_andCountsInStatus() {
        MemoryProfile saved = new MemoryProfile();
        Inspector inspector = observing(saved);
        seen("key:ci", "acme", "cart");
        clock.advance(Duration.ofMinutes(10));
        seen("key:ci", "acme", "checkout");

        Derivation derivation = inspector.derive(Duration.ofMinutes(30));

        assertThat(derivation).isInstanceOf(Derivation.Derived.class);
        Derivation.Derived derived = (Derivation.Derived) derivation;
        assertThat(derived.suggested()).singleElement().satisfies(rule -> {
            assertThat(rule.id()).isEqualTo("r-000000000001");
            assertThat(rule.resources()).isEqualTo(Map.of("service", List.of("cart", "checkout")));
        });
        assertThat(derived.observations()).isEqualTo(2);
        assertThat(derived.from()).isEqualTo(clock.instant().minus(Duration.ofMinutes(30)));
        assertThat(derived.to()).isEqualTo(clock.instant());
        assertThat(inspector.profile()).isEqualTo(derived.suggested());
        assertThat(saved.load()).isEqualTo(derived.suggested());
        InspectStatus status = inspector.status();
        assertThat(status.suggestedRules()).isEqualTo(1);
        assertThat(status.acceptedRules()).isZero();
        assertThat(status.profileStorage()).isEqualTo("memory");
    }

    @Test
    void derive_isClampedToTheInspectWindow_andRefusesAWindowThatIsNotPositive() {
        Inspector inspector = observing(new MemoryProfile());
        seen("key:old", "acme", "cart");
        clock.advance(Duration.ofHours(2));
        seen("key:new", "acme", "cart");

        Derivation.Derived derived = (Derivation.Derived) inspector.derive(Duration.ofDays(7));

        // spec 8: OMCP_INSPECT_WINDOW (1h here) is as far back as derivation reads
        assertThat(derived.from()).isEqualTo(clock.instant().minus(WINDOW));
        assertThat(derived.suggested()).extracting(Rule::subject).containsExactly("key:new");
        assertThatThrownBy(() -> inspector.derive(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> inspector.derive(Duration.ofMinutes(-5))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDerivationThatCannotBeSaved_changesNothing() {
        Inspector inspector = observing(new FailingSave(List.of(CART)));
        seen("key:bot", "acme", "cart");

        Derivation derivation = inspector.derive(WINDOW);

        assertThat(derivation).isInstanceOf(Derivation.NotSaved.class);
        assertThat(((Derivation.NotSaved) derivation).message()).contains("No space left on device", "nothing changed");
        assertThat(inspector.profile()).containsExactly(CART);
        assertThat(inspector.status().suggestedRules()).isZero();
    }

    @Test
    void aReviewThatCannotBeSaved_changesNothing_andTheCallPathKeepsTheOldRules() {
        Rule sources = new Rule("r-sources", CART.subject(), "list_sources", Map.of(), Map.of(), CART.provenance(), RuleStatus.ACCEPTED);
        Inspector inspector = inspector(InspectMode.ENFORCE, new FailingSave(List.of(CART, sources)), ENTITLED);

        RuleChange change = inspector.changeRule("r-cart", new RuleEdit.Review(RuleStatus.REJECTED));

        assertThat(change).isInstanceOf(RuleChange.NotSaved.class);
        assertThat(inspector.profile()).containsExactly(CART, sources);
        assertThat(inspector.status().acceptedRules()).isEqualTo(2);
        assertThat(inspector.evaluate(InspectFixtures.call("key:ci", "query_logs", Map.of("service", "cart"), Map.of())))
                .isInstanceOf(Coverage.Covered.class);
    }

    @Test
    void review_setsTheStatus_andEditsReplaceWhatIsGiven_keepingTheStatus() {
        MemoryProfile saved = new MemoryProfile(List.of(CART.withStatus(RuleStatus.SUGGESTED)));
        Inspector inspector = observing(saved);

        RuleChange accepted = inspector.changeRule("r-cart", new RuleEdit.Review(RuleStatus.ACCEPTED));
        RuleChange edited = inspector.changeRule("r-cart", new RuleEdit.Change(Optional.of("role:sre"),
                Optional.of(Map.of("service", List.of("cart", "orders"))), Optional.empty()));

        assertThat(accepted).isEqualTo(new RuleChange.Changed(CART.withStatus(RuleStatus.SUGGESTED), CART));
        Rule after = ((RuleChange.Changed) edited).after();
        assertThat(after.subject()).isEqualTo("role:sre");
        assertThat(after.resources()).isEqualTo(Map.of("service", List.of("cart", "orders")));
        assertThat(after.status()).isEqualTo(RuleStatus.ACCEPTED);
        assertThat(after.provenance()).isEqualTo(CART.provenance());
        assertThat(saved.load()).containsExactly(after);
        assertThat(inspector.status().acceptedRules()).isEqualTo(1);
    }

    @Test
    void whileEnforcing_rejectingTheLastAcceptedRule_isRefused_andTheProfileStaysAsItWas() {
        MemoryProfile saved = new MemoryProfile(List.of(CART));
        Inspector inspector = inspector(InspectMode.ENFORCE, saved, ENTITLED);

        RuleChange refused = inspector.changeRule("r-cart", new RuleEdit.Review(RuleStatus.REJECTED));

        assertThat(refused).isInstanceOfSatisfying(RuleChange.Invalid.class, invalid -> assertThat(invalid.message())
                .contains("no accepted rule while Inspect enforces").contains("switch to dryrun first"));
        assertThat(saved.load()).containsExactly(CART);
        assertThat(inspector.status().acceptedRules()).isEqualTo(1);
        assertThat(inspector.changeMode(InspectMode.DRYRUN)).isInstanceOf(ModeChange.Changed.class);
        assertThat(inspector.changeRule("r-cart", new RuleEdit.Review(RuleStatus.REJECTED))).as("in dryrun it may")
                .isInstanceOf(RuleChange.Changed.class);
    }

    @Test
    void anEditThatWouldMakeAnInvalidRule_isRefusedWithWhatToSend_andAnUnknownId_isNotFound() {
        Inspector inspector = observing(new MemoryProfile(List.of(CART)));

        RuleChange emptyList = inspector.changeRule("r-cart", new RuleEdit.Change(Optional.empty(),
                Optional.of(Map.of("service", List.of())), Optional.empty()));
        RuleChange badSubject = inspector.changeRule("r-cart", new RuleEdit.Change(Optional.of("role:"), Optional.empty(),
                Optional.empty()));
        RuleChange unknownDimension = inspector.changeRule("r-cart", new RuleEdit.Change(Optional.empty(),
                Optional.of(Map.of("pod", List.of("x"))), Optional.empty()));
        java.util.Map<String, List<String>> withNull = new java.util.HashMap<>();
        withNull.put("limit", null);
        RuleChange nullList = inspector.changeRule("r-cart", new RuleEdit.Change(Optional.empty(), Optional.empty(),
                Optional.of(withNull)));

        assertThat(emptyList).isInstanceOf(RuleChange.Invalid.class);
        assertThat(((RuleChange.Invalid) emptyList).message()).contains("resources.service must list 1-256 values", "send");
        assertThat(((RuleChange.Invalid) badSubject).message()).contains("subject", "role:<role>");
        assertThat(((RuleChange.Invalid) unknownDimension).message()).contains("source, service and namespace only", "\"pod\"");
        assertThat(((RuleChange.Invalid) nullList).message()).contains("args hold a null");
        assertThat(inspector.changeRule("r-none", new RuleEdit.Review(RuleStatus.ACCEPTED))).isEqualTo(new RuleChange.NotFound("r-none"));
        assertThat(inspector.profile()).containsExactly(CART);
    }

    @Test
    void deviations_areEvaluatedAgainstTheProfileNow_newestFirst_limited_withTotalsPerKind_forOneTenantWhenAsked() {
        Inspector inspector = observing(new MemoryProfile(List.of(CART)));
        seen("key:ci", "acme", "cart"); // covered
        clock.advance(Duration.ofMinutes(1));
        seen("key:ci", "acme", "payments"); // new-resource
        clock.advance(Duration.ofMinutes(1));
        seen("key:bot", "acme", "cart"); // new-principal
        clock.advance(Duration.ofMinutes(1));
        seen("key:ci", "globex", "orders"); // new-resource, another tenant

        DeviationReport all = inspector.deviations(WINDOW, Optional.empty(), 2);
        DeviationReport acme = inspector.deviations(Duration.ofDays(2), Optional.of("acme"), 10);

        assertThat(all.total()).isEqualTo(3);
        assertThat(all.deviations()).extracting(d -> d.observation().resources().get("service")).containsExactly("orders", "cart");
        assertThat(all.byKind()).containsEntry(Deviation.Kind.NEW_RESOURCE, 2L).containsEntry(Deviation.Kind.NEW_PRINCIPAL, 1L)
                .containsEntry(Deviation.Kind.NEW_TOOL, 0L).containsEntry(Deviation.Kind.ARG_OUT_OF_RANGE, 0L);
        assertThat(all.observations()).isEqualTo(4);
        assertThat(all.acceptedRules()).isEqualTo(1);
        assertThat(acme.deviations()).extracting(Deviation::kind)
                .containsExactly(Deviation.Kind.NEW_PRINCIPAL, Deviation.Kind.NEW_RESOURCE);
        assertThat(acme.deviations().get(1).detail()).isEqualTo("service \"payments\" is not in [cart]");
        assertThat(acme.observations()).isEqualTo(3);
        assertThat(acme.window()).as("clamped to the Inspect window").isEqualTo(WINDOW);
        assertThatThrownBy(() -> inspector.deviations(WINDOW, Optional.empty(), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit must be 1-1000");
    }

    @Test
    void flows_coverTheWindow_andOneTenantWhenAsked() {
        Inspector inspector = observing(new MemoryProfile());
        seen("key:old", "acme", "cart");
        clock.advance(Duration.ofHours(2));
        seen("key:ci", "acme", "cart");
        seen("key:other", "globex", "cart");

        Flows acme = inspector.flows(Duration.ofDays(1), Optional.of("acme"));
        Flows all = inspector.flows(WINDOW, Optional.empty());

        assertThat(acme.nodes()).extracting(Flows.Node::id).containsExactly("principal:key:ci", "source:*", "tool:query_logs");
        assertThat(acme.window()).isEqualTo(WINDOW);
        assertThat(all.observations()).isEqualTo(2);
        assertThatThrownBy(() -> inspector.flows(Duration.ZERO, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }
}
