package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.mcp.Refusal;
import org.junit.jupiter.api.Test;

class RefusalStatusTest {
    @Test
    void aRequestOverTheSessionsBoundOfRequestsInFlight_is429_likeTheOtherLimits() {
        assertThat(RefusalStatus.of(Refusal.TOO_MANY_IN_FLIGHT)).isEqualTo(429);
        assertThat(RefusalStatus.of(Refusal.RATE_LIMITED)).isEqualTo(429);
        assertThat(RefusalStatus.of(Refusal.SESSION_LIMIT)).isEqualTo(429);
    }
}
