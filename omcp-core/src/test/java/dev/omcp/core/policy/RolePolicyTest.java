package dev.omcp.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyDocument;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RolePolicyTest {
    private static Principal user(String... roles) {
        return new Principal("u", "U", AuthKind.SESSION, "", Set.of(roles), Optional.of("sid"));
    }

    private static Permission p(String text) {
        return Permission.parse(text);
    }

    @Test
    void spec55_auditReadIsHeldByAllThreeRoles_usersDeleteAndRedactionBypassByAdminOnly() {
        RolePolicy policy = RolePolicy.builtin();
        for (String role : List.of("viewer", "operator", "admin")) {
            assertThat(policy.decide(user(role), p("audit:read"))).as(role).isInstanceOf(AccessDecision.Allowed.class);
        }
        for (String permission : List.of("users:delete", "redaction:bypass", "connectors:write", "inspection:write", "sources:delete")) {
            assertThat(policy.decide(user("operator"), p(permission))).as(permission).isInstanceOf(AccessDecision.Denied.class);
            assertThat(policy.decide(user("admin"), p(permission))).as(permission).isInstanceOf(AccessDecision.Allowed.class);
        }
    }

    @Test
    void decisionsRolesTable_viewerReads_operatorWritesConfiguration() {
        RolePolicy policy = RolePolicy.builtin();
        for (String resource : List.of("sources", "services", "health", "topology", "settings", "connectors", "audit", "catalog",
                "products", "inspection")) {
            assertThat(policy.decide(user("viewer"), new Permission(resource, "read"))).isInstanceOf(AccessDecision.Allowed.class);
        }
        assertThat(policy.decide(user("viewer"), p("sources:write"))).isInstanceOf(AccessDecision.Denied.class);
        for (String permission : List.of("sources:write", "health:write", "settings:write", "products:write", "postmortems:write")) {
            assertThat(policy.decide(user("operator"), p(permission))).as(permission).isInstanceOf(AccessDecision.Allowed.class);
        }
        assertThat(policy.permissionsOf(user("admin"))).isEqualTo(BuiltinPolicy.ALL);
    }

    @Test
    void aDenialNamesTheRequiredPermissionAndWhatTheCallerHas() {
        AccessDecision.Denied denied = (AccessDecision.Denied) RolePolicy.builtin().decide(user("viewer"), p("sources:write"));
        assertThat(denied.required()).isEqualTo(p("sources:write"));
        assertThat(denied.have()).contains(p("sources:read")).doesNotContain(p("sources:write"));
    }

    @Test
    void theAnonymousPrincipalOfAnonymousModeHoldsEverything_aSessionWithoutRolesNothing() {
        assertThat(RolePolicy.builtin().permissionsOf(Principal.anonymous())).isEqualTo(BuiltinPolicy.ALL);
        assertThat(RolePolicy.builtin().permissionsOf(user())).isEmpty();
        assertThat(RolePolicy.builtin().decide(user("nonexistent"), p("audit:read"))).isInstanceOf(AccessDecision.Denied.class);
    }

    @Test
    void aCustomPolicyWithWildcards() throws Exception {
        Map<String, List<String>> roles = new LinkedHashMap<>();
        roles.put("auditor", List.of("audit:read", "policy:read"));
        roles.put("source-admin", List.of("sources:*"));
        roles.put("root", List.of("*"));
        RolePolicy policy = RolePolicy.fromDocument(new PolicyDocument(roles), BuiltinPolicy.ALL, "test.yaml");
        assertThat(policy.permissionsOf(user("auditor"))).containsExactly(p("audit:read"), p("policy:read"));
        assertThat(policy.permissionsOf(user("source-admin"))).containsExactly(p("sources:read"), p("sources:write"), p("sources:delete"));
        assertThat(policy.permissionsOf(user("root"))).isEqualTo(BuiltinPolicy.ALL);
        assertThat(policy.permissionsOf(user("viewer"))).isEmpty();
        assertThat(policy.view().roles()).containsExactly("auditor", "source-admin", "root");
        assertThat(policy.view().policy().get("source-admin")).containsExactly("sources:*");
        assertThat(policy.view().note()).contains("test.yaml");
    }

    @Test
    void anInvalidCustomPolicyListsEveryProblem() {
        Map<String, List<String>> roles = new LinkedHashMap<>();
        roles.put("Bad Name", List.of("audit:read"));
        roles.put("typo", List.of("sorces:read", "sources:destroy", "nonsense"));
        assertThatThrownBy(() -> RolePolicy.fromDocument(new PolicyDocument(roles), BuiltinPolicy.ALL, "p.yaml"))
                .isInstanceOfSatisfying(InvalidPolicyException.class, e -> assertThat(e.problems()).hasSize(4)
                        .anySatisfy(m -> assertThat(m).contains("Bad Name"))
                        .anySatisfy(m -> assertThat(m).contains("unknown resource 'sorces'"))
                        .anySatisfy(m -> assertThat(m).contains("'sources:destroy'").contains("read, write, delete"))
                        .anySatisfy(m -> assertThat(m).contains("'nonsense'")));
        assertThatThrownBy(() -> RolePolicy.fromDocument(new PolicyDocument(Map.of()), BuiltinPolicy.ALL, "p.yaml"))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("no roles");
    }

    @Test
    void problemsQuoteNamesWithoutControlCharacters_andCutLongOnes() {
        Map<String, List<String>> roles = new LinkedHashMap<>();
        roles.put("evil\u001b[2J\nrole", List.of("audit:read"));
        roles.put("ok", List.of("bad\u0007\u202epermission", "x".repeat(10_000)));
        assertThatThrownBy(() -> RolePolicy.fromDocument(new PolicyDocument(roles), BuiltinPolicy.ALL, "p.yaml"))
                .isInstanceOfSatisfying(InvalidPolicyException.class, e -> {
                    assertThat(e.problems()).hasSize(3)
                            .anySatisfy(m -> assertThat(m).contains("role 'evil?[2J?role'"))
                            .anySatisfy(m -> assertThat(m).contains("'bad??permission' is not resource:action"))
                            .anySatisfy(m -> assertThat(m).contains("'" + "x".repeat(64) + "…'"))
                            .allSatisfy(m -> assertThat(m).doesNotContainPattern("[\\p{Cc}\\p{Cf}]").hasSizeLessThan(200));
                });
    }
}
