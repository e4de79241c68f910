package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class UnsentBytesTest {

    @Test
    void messagesAreTakenUpToTheBound_andOneThatWouldPassItIsRefused() {
        UnsentBytes unsent = new UnsentBytes(100);
        assertThat(unsent.reserve(60)).isTrue();
        assertThat(unsent.reserve(40)).as("exactly the bound").isTrue();
        assertThat(unsent.reserve(1)).as("one byte past the bound").isFalse();
        assertThat(unsent.waiting()).as("a refused message is not counted").isEqualTo(100);
    }

    @Test
    void aWrittenMessage_makesRoomAgain() {
        UnsentBytes unsent = new UnsentBytes(100);
        unsent.reserve(80);
        assertThat(unsent.reserve(30)).isFalse();
        unsent.release(80);
        assertThat(unsent.reserve(30)).isTrue();
        assertThat(unsent.waiting()).isEqualTo(30);
    }

    @Test
    void aLoneMessageLargerThanTheBound_isStillTaken_whenNothingElseWaits() {
        UnsentBytes unsent = new UnsentBytes(100);
        assertThat(unsent.reserve(5000)).as("one large answer on an idle socket").isTrue();
        assertThat(unsent.reserve(1)).as("nothing more while it waits").isFalse();
    }

    @Test
    void aBoundBelowOne_isRefusedWithTheValue() {
        assertThatThrownBy(() -> new UnsentBytes(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
    }

    @Test
    void utf8Length_countsWhatTheEncodedTextTakes() {
        for (String text : new String[] {"", "plain ascii", "caf\u00e9", "\u20ac 5", "emoji \ud83d\ude00", "lone \ud83d surrogate"}) {
            assertThat(UnsentBytes.utf8Length(text)).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }
}
