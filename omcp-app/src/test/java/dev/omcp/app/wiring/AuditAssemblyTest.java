package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import dev.omcp.core.audit.AuditChain;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.testkit.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The audit store the launcher builds from its settings. */
class AuditAssemblyTest {

    @Test
    void withoutAnAuditFile_theLauncherKeepsTheNewest500EntriesInMemory() throws Exception {
        // spec 8: audit ring of 500 entries when OMCP_MGMT_AUDIT_FILE is unset
        ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        try (AuditChain chain = AuditAssembly.start(SettingsReader.read(Map.of()).audit(), new EgressRules(false), clock)) {
            for (int i = 1; i <= 501; i++) {
                chain.record(new AuditEvent("user:a", "", "sources", "update", "PUT", "/api/sources/s", 200, "", "s" + i));
            }
            List<AuditEntry> kept = chain.find(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), AuditQuery.MAX_LIMIT)).entries();
            assertThat(chain.persisted()).isFalse();
            assertThat(kept).hasSize(500);
            assertThat(kept.getFirst().seq()).isEqualTo(501);
            assertThat(kept.getLast().seq()).isEqualTo(2);
        }
    }
}
