package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.auth.JsonUsersFile;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.core.policy.RolePolicy;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.identity.Principal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A users file that gives a user a role the policy does not define is named at start: that role grants nothing. */
class UndefinedRolesTest {
    @RegisterExtension
    final CapturedLog log = CapturedLog.of(ManagementAccessAssembly.class);

    // a valid scrypt hash at a low cost; the users file checks its form, never the password here
    private static final String HASH = "scrypt$1024$8$1$EBESExQVFhcYGRobHB0eHw==$XbyYPdUma9TQEMux0+TkqpxuU9BGN/gE8DwWuSNdyPn/ZSaq4MJI2/XG0XpckbaY9j99MUwCi5W0SYAybqa4iA==";

    @TempDir
    Path dir;

    private JsonUsersFile users(String... userRoles) throws Exception {
        StringBuilder json = new StringBuilder("{\"users\": [");
        for (int i = 0; i < userRoles.length; i += 2) {
            json.append(i == 0 ? "" : ",").append("{\"username\": \"").append(userRoles[i]).append("\", \"roles\": [")
                    .append(userRoles[i + 1]).append("], \"passwordHash\": \"").append(HASH).append("\"}");
        }
        return JsonUsersFile.load(Files.writeString(dir.resolve("users.json"), json.append("]}").toString()), java.time.Clock.systemUTC());
    }

    @Test
    void aRoleTheBuiltinPolicyDoesNotDefine_isNamedWithItsUser() throws Exception {
        JsonUsersFile users = users("alice", "\"admin\"", "bob", "\"superuser\", \"viewer\"", "carol", "\"operator\"");

        assertThat(ManagementAccessAssembly.undefinedRoles(users, RolePolicy.builtin()))
                .containsExactly(new ManagementAccessAssembly.UndefinedRole("bob", "superuser"));
    }

    @Test
    void theWarningQuotesAUsersFilesUserAndRoleEscaped_soNeitherForgesAField() throws Exception {
        // JSON text: the user is  bob" role="admin  and the role  super\  whose backslash would escape the closing quote
        JsonUsersFile users = users("bob\\\" role=\\\"admin", "\"super\\\\\"");

        ManagementAccessAssembly.warnOfUndefinedRoles(users, RolePolicy.builtin());

        assertThat(log.warnings()).singleElement().asString()
                .startsWith("event=user-role-undefined user=\"bob\\u{22} role=\\u{22}admin\" role=\"super\\\\\" ");
    }

    @Test
    void anOidcRoleMapNamingARoleThePolicyDoesNotDefine_isNamedWithItsClaimValue() {
        // {"sre": "Operator"}: a typo that lets every sre log in with no permissions, and no word why
        Map<String, List<String>> roleMap = new java.util.LinkedHashMap<>();
        roleMap.put("sre", List.of("Operator"));
        roleMap.put("platform-admins", List.of("admin", "superuser"));
        roleMap.put("readers", List.of("viewer"));

        assertThat(ManagementAccessAssembly.undefinedMappedRoles(roleMap, RolePolicy.builtin())).containsExactly(
                new ManagementAccessAssembly.UndefinedRole("sre", "Operator"),
                new ManagementAccessAssembly.UndefinedRole("platform-admins", "superuser"));
        assertThat(ManagementAccessAssembly.undefinedMappedRoles(roleMap, decidesPerRequest())).as("OPA takes any role").isEmpty();
    }

    @Test
    void aPolicyThatListsNoRoles_isNotChecked_itDecidesPerRequest() throws Exception {
        assertThat(ManagementAccessAssembly.undefinedRoles(users("bob", "\"superuser\""), decidesPerRequest())).isEmpty();
    }

    private static AccessPolicy decidesPerRequest() {
        return new AccessPolicy() {
            @Override
            public AccessDecision decide(Principal principal, Permission permission) {
                return new AccessDecision.Allowed();
            }

            @Override
            public List<Permission> permissionsOf(Principal principal) {
                return List.of();
            }

            @Override
            public List<Permission> catalog() {
                return List.of();
            }

            @Override
            public PolicyView view() {
                return new PolicyView(Map.of(), List.of(), "decided by a server");
            }
        };
    }
}
