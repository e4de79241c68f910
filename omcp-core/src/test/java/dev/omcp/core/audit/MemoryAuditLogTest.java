package dev.omcp.core.audit;

import dev.omcp.testkit.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditEvent;
import dev.omcp.ports.audit.AuditQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MemoryAuditLogTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2025-03-01T10:00:00Z"));

    @Test
    void spec8_theRingKeepsTheNewest500Entries() {
        MemoryAuditLog ring = new MemoryAuditLog();
        AuditChain chain = new AuditChain(ring, List.of(), clock).start();
        for (int i = 1; i <= 700; i++) {
            chain.record(new AuditEvent("user:a", "", "sources", "update", "PUT", "/api/sources/s", 200, "", "s" + i));
        }

        List<AuditEntry> all = ring.find(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), AuditQuery.MAX_LIMIT));

        assertThat(all).hasSize(500);
        assertThat(all.get(0).seq()).isEqualTo(700);
        assertThat(all.get(499).seq()).isEqualTo(201);
        assertThat(ring.persistent()).isFalse();
    }

    @Test
    void filtersApplyNewestFirstUpToTheLimit() {
        MemoryAuditLog ring = new MemoryAuditLog();
        AuditChain chain = new AuditChain(ring, List.of(), clock).start();
        for (int i = 1; i <= 10; i++) {
            clock.advance(Duration.ofMinutes(1));
            chain.record(new AuditEvent(i % 2 == 0 ? "user:even" : "user:odd", "", "sources",
                    i % 3 == 0 ? "delete" : "update", "PUT", "/api/sources/s", 200, "", "s" + i));
        }
        Instant from = Instant.parse("2025-03-01T10:03:00Z");
        Instant to = Instant.parse("2025-03-01T10:08:00Z");

        List<AuditEntry> found = ring.find(new AuditQuery(Optional.of(from), Optional.of(to), Optional.of("user:even"),
                Optional.of("update"), 2));

        assertThat(found).extracting(AuditEntry::target).containsExactly("s8", "s4");
    }

    @Test
    void pagingByBeforeSeq_returnsEachEntryOnce_whenMoreThanAPageShareOneMillisecond() {
        AuditChain chain = new AuditChain(new MemoryAuditLog(), List.of(), clock).start();
        for (int i = 1; i <= 5; i++) {
            chain.record(new AuditEvent("user:a", "", "sources", "update", "PUT", "/api/sources/s", 200, "", "s" + i));
        }

        List<Long> seen = new java.util.ArrayList<>();
        java.util.OptionalLong cursor = java.util.OptionalLong.empty();
        for (int page = 0; page < 10; page++) {
            List<AuditEntry> entries = chain.find(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), cursor, Optional.empty(), 2)).entries();
            if (entries.isEmpty()) {
                break;
            }
            entries.forEach(entry -> seen.add(entry.seq()));
            cursor = java.util.OptionalLong.of(entries.get(entries.size() - 1).seq());
        }

        assertThat(seen).containsExactly(5L, 4L, 3L, 2L, 1L);
    }

    @Test
    void aTenantFilter_matchesTheTenantAsTheEntryHoldsIt_evenWhenItWasBoundedOnTheWayIn() {
        AuditChain chain = new AuditChain(new MemoryAuditLog(), List.of(), clock).start();
        String longTenant = "t".repeat(300);
        chain.record(new AuditEvent("user:a", "acme", "sources", "update", "PUT", "/api/sources/a", 200, "", "a"));
        chain.record(new AuditEvent("user:g", "globex", "sources", "update", "PUT", "/api/sources/g", 200, "", "g"));
        chain.record(new AuditEvent("user:root", "", "sources", "update", "PUT", "/api/sources/r", 200, "", "r"));
        chain.record(new AuditEvent("user:l", longTenant, "sources", "update", "PUT", "/api/sources/l", 200, "", "l"));

        assertThat(chain.find(AuditQuery.latest().onlyTenant("acme")).entries()).extracting(AuditEntry::target).containsExactly("a");
        assertThat(chain.find(AuditQuery.latest().onlyTenant(longTenant)).entries()).extracting(AuditEntry::target)
                .containsExactly("l");
        assertThat(chain.find(AuditQuery.latest()).entries()).hasSize(4);
    }
}
