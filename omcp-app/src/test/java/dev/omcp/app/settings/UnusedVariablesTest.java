package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.UnusedVariables.Unused;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnusedVariablesTest {

    @Test
    void oidcVariables_whileAuthIsBasic_areUnused_andTheStartIsNotRefused() throws Exception {
        Map<String, String> env = Map.of("OMCP_AUTH", "Basic", "OMCP_OIDC_ISSUER", "https://idp.example.com",
                "OMCP_OIDC_CLIENT_SECRET", "oidc-secret-9f2c");

        assertThat(UnusedVariables.in(env)).containsExactly(
                new Unused("OMCP_OIDC_ISSUER", "OMCP_AUTH=oidc", "OMCP_AUTH=basic"),
                new Unused("OMCP_OIDC_CLIENT_SECRET", "OMCP_AUTH=oidc", "OMCP_AUTH=basic"));
        assertThat(UnusedVariables.in(env).toString()).doesNotContain("oidc-secret-9f2c");
        // a warning, not an error: the settings are accepted as they were
        assertThat(SettingsReader.read(env).access().oidc()).isEmpty();
    }

    @Test
    void oidcVariables_withoutOmcpAuth_areUnderTheAnonymousDefault() {
        assertThat(UnusedVariables.in(Map.of("OMCP_OIDC_CLIENT_ID", "gateway", "OMCP_OIDC_PROFILE", " ")))
                .as("a blank variable counts as unset")
                .containsExactly(new Unused("OMCP_OIDC_CLIENT_ID", "OMCP_AUTH=oidc", "OMCP_AUTH=anonymous"));
    }

    @Test
    void oidcVariables_underOidc_andEverythingInItsOwnMode_areUsed() {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "oidc");
        env.put("OMCP_OIDC_ISSUER", "https://idp.example.com");
        env.put("OMCP_OIDC_CLIENT_ID", "gateway");
        env.put("OMCP_MGMT_AUDIT_FILE", "/var/lib/omcp/audit.jsonl");
        env.put("OMCP_AUDIT_FSYNC", "batch");
        env.put("OMCP_AUDIT_FSYNC_INTERVAL_MS", "250");
        assertThat(UnusedVariables.in(env)).isEmpty();
        assertThat(UnusedVariables.in(Map.of())).isEmpty();
    }

    @Test
    void theUsersFileAndTheFallback_outsideBasicMode_areUnused() {
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "oidc", "OMCP_USERS_FILE", "/etc/omcp/users.json",
                "OMCP_AUTH_ALLOW_FALLBACK", "true")))
                .containsExactly(new Unused("OMCP_USERS_FILE", "OMCP_AUTH=basic", "OMCP_AUTH=oidc"),
                        new Unused("OMCP_AUTH_ALLOW_FALLBACK", "OMCP_AUTH=basic", "OMCP_AUTH=oidc"));
    }

    @Test
    void theLockoutPolicy_withTheLockoutOff_orOutsideBasicMode_isUnused() {
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "basic", "OMCP_AUTH_LOCKOUT_DISABLED", "Yes",
                "OMCP_AUTH_LOCKOUT_MAX_FAILURES", "3", "OMCP_AUTH_LOCKOUT_MAX", "600")))
                .containsExactlyInAnyOrder(
                        new Unused("OMCP_AUTH_LOCKOUT_MAX_FAILURES", "OMCP_AUTH_LOCKOUT_DISABLED=false", "OMCP_AUTH_LOCKOUT_DISABLED=true"),
                        new Unused("OMCP_AUTH_LOCKOUT_MAX", "OMCP_AUTH_LOCKOUT_DISABLED=false", "OMCP_AUTH_LOCKOUT_DISABLED=true"));
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "oidc", "OMCP_OIDC_ISSUER", "https://idp.example.com",
                "OMCP_AUTH_LOCKOUT_WINDOW", "600", "OMCP_AUTH_LOCKOUT_DISABLED", "true")))
                .containsExactlyInAnyOrder(new Unused("OMCP_AUTH_LOCKOUT_WINDOW", "OMCP_AUTH=basic", "OMCP_AUTH=oidc"),
                        new Unused("OMCP_AUTH_LOCKOUT_DISABLED", "OMCP_AUTH=basic", "OMCP_AUTH=oidc"));
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "basic", "OMCP_AUTH_LOCKOUT_DISABLED", "off",
                "OMCP_AUTH_LOCKOUT_MAX_FAILURES", "3"))).as("a lockout that is on uses its policy").isEmpty();
    }

    @Test
    void theDcrStore_withoutDcrEnabled_isUnused() {
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "oidc", "OMCP_OIDC_DCR_STORE", "/var/lib/omcp/clients.json")))
                .containsExactly(new Unused("OMCP_OIDC_DCR_STORE", "OMCP_OIDC_DCR_ENABLED=true", "OMCP_OIDC_DCR_ENABLED=false"));
        assertThat(UnusedVariables.in(Map.of("OMCP_AUTH", "oidc", "OMCP_OIDC_DCR_ENABLED", "1",
                "OMCP_OIDC_DCR_STORE", "/var/lib/omcp/clients.json"))).isEmpty();
    }

    @Test
    void theFsyncInterval_underAnotherFsyncPolicy_isUnused() {
        assertThat(UnusedVariables.in(Map.of("OMCP_MGMT_AUDIT_FILE", "/a.jsonl", "OMCP_AUDIT_FSYNC_INTERVAL_MS", "250")))
                .as("the default policy is always")
                .containsExactly(new Unused("OMCP_AUDIT_FSYNC_INTERVAL_MS", "OMCP_AUDIT_FSYNC=batch", "OMCP_AUDIT_FSYNC=always"));
        assertThat(UnusedVariables.in(Map.of("OMCP_MGMT_AUDIT_FILE", "/a.jsonl", "OMCP_AUDIT_FSYNC", "NEVER",
                "OMCP_AUDIT_FSYNC_INTERVAL_MS", "250")))
                .containsExactly(new Unused("OMCP_AUDIT_FSYNC_INTERVAL_MS", "OMCP_AUDIT_FSYNC=batch", "OMCP_AUDIT_FSYNC=never"));
    }

    @Test
    void theTrustRootAndRevokedKeys_withVerificationOff_andNoRuntimeInstall_areUnused() throws Exception {
        Map<String, String> env = Map.of("VERIFY_PLUGINS", "Off", "PLUGIN_TRUST_ROOT", "/etc/omcp/trust.pem",
                "OMCP_PLUGIN_REVOKED_KEYS", "/etc/omcp/revoked.txt");
        assertThat(UnusedVariables.in(env)).containsExactly(
                new Unused("PLUGIN_TRUST_ROOT", "VERIFY_PLUGINS=true", "VERIFY_PLUGINS=false"),
                new Unused("OMCP_PLUGIN_REVOKED_KEYS", "VERIFY_PLUGINS=true", "VERIFY_PLUGINS=false"));
        assertThat(SettingsReader.read(env).plugins().trustRoot()).as("a warning, not an error").isPresent();
    }

    @Test
    void theTrustRoot_isUsed_byVerification_strictMode_andRuntimeInstalls() {
        assertThat(UnusedVariables.in(Map.of("PLUGIN_TRUST_ROOT", "/etc/omcp/trust.pem"))).as("verification is on by default").isEmpty();
        assertThat(UnusedVariables.in(Map.of("VERIFY_PLUGINS", "no", "PLUGIN_REQUIRE_SIGNATURE", "yes",
                "PLUGIN_TRUST_ROOT", "/etc/omcp/trust.pem"))).as("strict mode implies verification").isEmpty();
        assertThat(UnusedVariables.in(Map.of("VERIFY_PLUGINS", "0", "ENABLE_UI_INSTALL", "true",
                "PLUGIN_TRUST_ROOT", "/etc/omcp/trust.pem", "OMCP_PLUGIN_REVOKED_KEYS", "/etc/omcp/revoked.txt")))
                .as("a runtime install verifies the bundle whatever VERIFY_PLUGINS says").isEmpty();
    }

    @Test
    void theScimStoreFile_withTheDirectoryInRedis_isUnused_andTheStartIsNotRefused() throws Exception {
        Map<String, String> env = Map.of("OMCP_SCIM_BACKEND", "Store", "OMCP_SCIM_STORE_URL", "redis://10.0.0.7:6379",
                "OMCP_SCIM_STORE", "/var/lib/omcp/scim.json");
        assertThat(UnusedVariables.in(env)).containsExactly(
                new Unused("OMCP_SCIM_STORE", "OMCP_SCIM_BACKEND=file", "OMCP_SCIM_BACKEND=store"));
        assertThat(SettingsReader.read(env).scim().redisUrl()).as("a warning, not an error").contains("redis://10.0.0.7:6379");
        assertThat(UnusedVariables.in(Map.of("OMCP_SCIM_STORE", "/var/lib/omcp/scim.json"))).as("the file is the default").isEmpty();
    }
}
