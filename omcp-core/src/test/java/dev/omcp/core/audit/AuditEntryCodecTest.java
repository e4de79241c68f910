package dev.omcp.core.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AuditEntryCodecTest {
    private static final Instant TS = Instant.parse("2025-03-01T10:00:00.250Z");

    private static AuditEntryCodec.Entry draft(long seq) {
        return new AuditEntryCodec.Entry(TS, seq, "alice", null, "sources", "write", "PUT", "/api/sources/s", 200,
                "127.0.0.1", "s", AuditEntry.GENESIS_HASH, null);
    }

    @Test
    void everySeqAnEntryCanHave_hashesApart_andOnePastTheExactRangeOfAJsonNumberCannotBeAnEntry() {
        // RFC 8785 writes numbers as IEEE 754 doubles: past 2^53 - 1 two integers share one spelling, so two
        // entries differing only in seq would hash the same. An entry's seq stays within the exact range.
        long largest = (1L << 53) - 1;
        assertThat(AuditEntryCodec.hash(draft(largest))).isNotEqualTo(AuditEntryCodec.hash(draft(largest - 1)));
        assertThatThrownBy(() -> draft(largest + 1).withHash("0".repeat(64)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seq");
        assertThatThrownBy(() -> draft(largest + 2).withHash("0".repeat(64)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seq");
    }
}
