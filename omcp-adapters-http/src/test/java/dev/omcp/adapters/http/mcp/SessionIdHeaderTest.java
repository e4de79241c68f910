package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MCP: a session id holds only visible ASCII (0x21 to 0x7E). */
class SessionIdHeaderTest {
    @Test
    void visibleAscii_isASessionIdToLookUp() {
        assertThat(SessionIdHeader.malformed("not-a-session")).isEmpty();
        assertThat(SessionIdHeader.malformed("!~" + "A".repeat(41))).isEmpty();
    }

    @Test
    void emptyOrAnythingButVisibleAscii_isMalformed_andTheValueIsNotRepeated() {
        assertThat(SessionIdHeader.malformed("")).hasValueSatisfying(m -> assertThat(m).contains("empty"));
        for (String value : new String[] {"a b", "a\tb", "caf\u00e9", "a\u0000b", "a\u007fb", "\u2028x"}) {
            assertThat(SessionIdHeader.malformed(value)).as(value)
                    .hasValueSatisfying(m -> assertThat(m).contains("visible ASCII").doesNotContain(value));
        }
    }
}
