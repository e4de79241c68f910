package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import dev.omcp.testkit.audit.RecordingAuditTrail;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A custom role policy that gives no role users:delete leaves nobody able to end a session early: the start says so. */
class SessionRevokerWarningTest {
    @RegisterExtension
    final CapturedLog log = CapturedLog.of(ManagementAccessAssembly.class);

    // a valid scrypt hash at a low cost; the users file checks its form, never the password here
    private static final String HASH = "scrypt$1024$8$1$EBESExQVFhcYGRobHB0eHw==$"
            + "XbyYPdUma9TQEMux0+TkqpxuU9BGN/gE8DwWuSNdyPn/ZSaq4MJI2/XG0XpckbaY9j99MUwCi5W0SYAybqa4iA==";

    @TempDir
    Path dir;

    private List<String> warningsOfAStartWith(String authMode, String policy) throws Exception {
        Path users = Files.writeString(dir.resolve("users.json"), "{\"users\": [{\"username\": \"alice\", \"roles\": [\"viewer\"], "
                + "\"passwordHash\": \"" + HASH + "\"}]}");
        Path policyFile = Files.writeString(dir.resolve("policy.yaml"), policy);
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", authMode);
        env.put("OMCP_USERS_FILE", users.toString());
        env.put("OMCP_RBAC_POLICY_FILE", policyFile.toString());
        env.put("OMCP_SESSION_SECRET", "s".repeat(32));
        ManagementAccessAssembly.Built built = ManagementAccessAssembly.build(SettingsReader.read(env).access(), Clock.systemUTC(),
                new SecureRandom(), new RecordingAuditTrail());
        ManagementAccessAssembly.closeAll(built.closeables());
        return log.warnings().stream().filter(line -> line.startsWith("event=rbac-no-session-revoker ")).toList();
    }

    @Test
    void aPolicyWhereNoRoleHoldsUsersDelete_isNamedAtStart_withWhatIsMissingAndWhatFollows() throws Exception {
        List<String> warnings = warningsOfAStartWith("basic", "roles:\n  viewer: [sources:read, audit:read]\n  editor: [users:write]\n");

        assertThat(warnings).singleElement().satisfies(line -> assertThat(line)
                .contains("file=\"" + dir.resolve("policy.yaml") + "\"", "missing=users:delete",
                        "effect=\"no role may list or revoke sessions (GET and POST /api/auth/revocations)", "until it expires",
                        "hint=\"grant users:delete (or users:* or *)"));
    }

    @Test
    void aRoleGrantingUsersDeleteByNameOrByAWildcard_leavesTheStartQuiet() throws Exception {
        assertThat(warningsOfAStartWith("basic", "roles:\n  viewer: [sources:read]\n  admin: [users:delete]\n")).isEmpty();
        assertThat(warningsOfAStartWith("basic", "roles:\n  viewer: [sources:read]\n  admin: [\"users:*\"]\n")).isEmpty();
        assertThat(warningsOfAStartWith("basic", "roles:\n  viewer: [sources:read]\n  root: [\"*\"]\n")).isEmpty();
    }

    @Test
    void withoutLogins_thereIsNoSessionToEnd_andNoWarning() throws Exception {
        assertThat(warningsOfAStartWith("anonymous", "roles:\n  viewer: [sources:read]\n")).isEmpty();
    }
}
