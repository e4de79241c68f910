package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AllowLists;
import dev.omcp.ports.identity.AuthKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** spec 5.4: named bearer tokens for the agent transport. */
class ApiKeyAuthenticationTest {
    private static final String CI_TOKEN = "ci-token-0123456789abcdef";
    private final ApiKeyAuthentication auth = new ApiKeyAuthentication(List.of(
            ApiKey.of("ci-bot", CI_TOKEN, "team-a"), ApiKey.of("claude", "claude-token-0123456789", "")));

    @Test
    void withoutKeys_everyCallerIsAnonymous() {
        AgentAuthResult result = new ApiKeyAuthentication(List.of()).authenticate(Optional.empty());
        assertThat(result).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class,
                a -> assertThat(a.principal().authKind()).isEqualTo(AuthKind.ANONYMOUS));
    }

    @Test
    void aKnownToken_authenticatesItsNamedKeyWithItsTenant() {
        assertThat(auth.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class, a -> {
            assertThat(a.principal().id()).isEqualTo("key:ci-bot");
            assertThat(a.principal().tenant()).isEqualTo("team-a");
        });
    }

    @Test
    void aKeysToolAndSourceLists_travelWithThePrincipalItAuthenticatesAs() {
        AllowLists lists = AllowLists.none().withTools(List.of("list_sources", "query_logs")).withSources(List.of("loki"));
        ApiKeyAuthentication limited = new ApiKeyAuthentication(List.of(ApiKey.of("ci-bot", CI_TOKEN, "acme", lists)));

        assertThat(limited.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class, a -> {
            assertThat(a.principal().tenant()).isEqualTo("acme");
            assertThat(a.principal().allowLists()).isEqualTo(lists);
        });
        assertThat(auth.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class,
                a -> assertThat(a.principal().allowLists().isNone()).as("a key without lists").isTrue());
    }

    @Test
    void aKeysRoles_travelWithThePrincipal_andAKeyWithoutHoldsNone() {
        ApiKeyAuthentication withRoles = new ApiKeyAuthentication(List.of(
                ApiKey.of("forensics", CI_TOKEN, "", AllowLists.none(), java.util.Set.of("admin"))));

        assertThat(withRoles.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class,
                a -> assertThat(a.principal().roles()).containsExactly("admin"));
        assertThat(auth.authenticate(Optional.of(CI_TOKEN))).isInstanceOfSatisfying(AgentAuthResult.Authenticated.class,
                a -> assertThat(a.principal().roles()).isEmpty());
    }

    @Test
    void aTenantNoSourceCanBeBoundTo_isRefusedAtConfiguration_withoutTheToken() {
        // the rule of a source's tenant (spec 2.17): a key bound to another one would see only the unbound sources
        assertThatThrownBy(() -> ApiKey.of("ci-bot", CI_TOKEN, "   ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("API key 'ci-bot' has tenant").hasMessageNotContaining(CI_TOKEN);
        assertThatThrownBy(() -> ApiKey.of("ci-bot", CI_TOKEN, "acme\nglobex")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'acme?globex'").hasMessageContaining("control");
        assertThatThrownBy(() -> ApiKey.of("ci-bot", CI_TOKEN, "t".repeat(257))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ApiKey.of("ci-bot", CI_TOKEN, "acme").tenant()).isEqualTo("acme");
    }

    @Test
    void missingOrUnknownTokens_areRefusedWithoutEchoingThem() {
        assertThat(auth.authenticate(Optional.empty())).isInstanceOf(AgentAuthResult.Refused.class);
        AgentAuthResult wrong = auth.authenticate(Optional.of("guess-guess-guess-guess"));
        assertThat(wrong).isInstanceOfSatisfying(AgentAuthResult.Refused.class,
                r -> assertThat(r.reason()).doesNotContain("guess"));
        assertThat(auth.authenticate(Optional.of(CI_TOKEN + "x"))).isInstanceOf(AgentAuthResult.Refused.class);
        assertThat(auth.authenticate(Optional.of("x".repeat(10_000)))).isInstanceOf(AgentAuthResult.Refused.class);
    }

    @Test
    void shortTokensAndDuplicateNames_areRefusedAtConfiguration() {
        assertThatThrownBy(() -> ApiKey.of("a", "short", "")).hasMessageContaining("shorter than 16").hasMessageNotContaining("short\"");
        assertThatThrownBy(() -> new ApiKeyAuthentication(List.of(ApiKey.of("a", CI_TOKEN, ""), ApiKey.of("a", CI_TOKEN + "1", ""))))
                .hasMessageContaining("appears twice");
        assertThat(ApiKey.of("a", CI_TOKEN, "").toString()).doesNotContain(CI_TOKEN);
    }

    @Test
    void twoKeysWithOneToken_areRefusedAtConfiguration_namingTheKeysNotTheToken() {
        // the token would authenticate only the first key, with its tenant: the second key would never work
        assertThatThrownBy(() -> new ApiKeyAuthentication(List.of(ApiKey.of("ci-bot", CI_TOKEN, "team-a"),
                ApiKey.of("claude", "claude-token-0123456789", ""), ApiKey.of("ops", CI_TOKEN, "team-b"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ci-bot' and 'ops' have the same token")
                .hasMessageNotContaining(CI_TOKEN);
    }
}
