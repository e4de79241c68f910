package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.Settings;
import dev.omcp.core.auth.ApiKeyAuthentication;
import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.ratelimit.RateLimit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentKeysTest {
    private static final String CI_TOKEN = "ci-token-0123456789abcdef";
    private static final String LONG_NAME_TOKEN = "ops-token-0123456789abcdef";
    private static final Settings.ToolRate DEFAULT_RATE = new Settings.ToolRate(RateLimit.standard(), Optional.empty());
    private static final Settings.TokenBudget NO_BUDGET = new Settings.TokenBudget(0, Optional.empty());

    private static Settings.Agent agent(Settings.ApiKeyEntry... keys) {
        return new Settings.Agent(List.of(keys), Map.of(), List.of("event=key-rate-skipped entry=1"), 10, 100, DEFAULT_RATE, NO_BUDGET);
    }

    @Test
    void theKeys_carryTheirTenantAndLists_toThePrincipalsTheyAuthenticateAs() {
        AllowLists lists = AllowLists.none().withTools(List.of("list_sources"));
        ApiKeyAuthentication authentication = new ApiKeyAuthentication(AgentKeys.of(agent(new Settings.ApiKeyEntry("ci", CI_TOKEN,
                "acme", lists))));

        assertThat(authentication.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class,
                a -> {
                    assertThat(a.principal().tenant()).isEqualTo("acme");
                    assertThat(a.principal().allowLists()).isEqualTo(lists);
                });
    }

    @Test
    void aListedToolOrSourceNobodyHasNow_isWarnedAbout_namingIt_afterTheSkippedRates() {
        Settings.ApiKeyEntry ci = new Settings.ApiKeyEntry("ci", CI_TOKEN, "acme", AllowLists.none()
                .withTools(List.of("list_sources", "query_log")).withSources(List.of("acme-prom", "prom-eu", "globex-prom", "shared")));

        List<String> lines = AgentKeys.warnings(agent(ci), Set.of("list_sources", "query_logs"),
                Map.of("acme-prom", "acme", "globex-prom", "globex", "shared", ""));

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("event=key-rate-skipped entry=1");
        assertThat(lines.get(1)).startsWith("event=key-tool-unknown variable=OMCP_KEY_TOOLS key=\"ci\" tool=\"query_log\" effect=");
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("event=key-source-unknown variable=OMCP_KEY_SOURCES key=\"ci\" source=\"prom-eu\" effect="));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .startsWith("event=key-source-unusable variable=OMCP_KEY_SOURCES key=\"ci\" source=\"globex-prom\" effect="));
    }

    @Test
    void aKeyWithoutLists_isWarnedAboutForNothing() {
        assertThat(AgentKeys.warnings(new Settings.Agent(List.of(new Settings.ApiKeyEntry("ci", CI_TOKEN)), Map.of(), List.of(), 10, 100,
                DEFAULT_RATE, NO_BUDGET),
                Set.of(), Map.of())).isEmpty();
    }

    @Test
    void noWarningShowsAToken_pastedIntoAList_orAsAKeysName() {
        Settings.ApiKeyEntry pasted = new Settings.ApiKeyEntry("ci", CI_TOKEN, "", AllowLists.none().withTools(List.of(CI_TOKEN)));
        Settings.ApiKeyEntry swapped = new Settings.ApiKeyEntry("ops-0123456789abcdef", LONG_NAME_TOKEN, "",
                AllowLists.none().withSources(List.of("prom-eu")));

        String lines = String.join("\n", AgentKeys.warnings(agent(pasted, swapped), Set.of(), Map.of()));

        assertThat(lines).doesNotContain(CI_TOKEN).doesNotContain("ops-0123456789abcdef").contains("(not shown: it holds a key's token)")
                .contains("key=\"(not shown: it may be a token)\"");
    }

    @Test
    void aKeyListedForTheBypassWhoseRolesDoNotHoldIt_isWarnedAbout_andOneThatHoldsItIsNot() {
        Settings.ApiKeyEntry viewer = new Settings.ApiKeyEntry("ci", CI_TOKEN, "", AllowLists.none(), Set.of("viewer"), true);
        Settings.ApiKeyEntry admin = new Settings.ApiKeyEntry("ops", "ops-token-0123456789abcdef", "", AllowLists.none(), Set.of("admin"),
                true);
        Settings.ApiKeyEntry unlisted = new Settings.ApiKeyEntry("bot", "bot-token-0123456789abcdef", "", AllowLists.none(), Set.of(),
                false);

        List<String> lines = AgentKeys.bypassWarnings(agent(viewer, admin, unlisted), dev.omcp.core.policy.RolePolicy.builtin());

        assertThat(lines).singleElement().asString().startsWith("event=key-bypass-ungranted variable=OMCP_KEY_BYPASS_REDACTION")
                .contains("key=\"ci\"", "roles=\"viewer\"", "stay redacted", "OMCP_KEY_ROLES").doesNotContain(CI_TOKEN);
    }
}
