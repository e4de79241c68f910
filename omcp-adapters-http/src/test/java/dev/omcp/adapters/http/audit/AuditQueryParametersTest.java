package dev.omcp.adapters.http.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditQuery;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditQueryParametersTest {

    private static AuditQueryParameters.Result parse(String... pairs) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            parameters.computeIfAbsent(pairs[i], k -> new java.util.ArrayList<>()).add(pairs[i + 1]);
        }
        return AuditQueryParameters.parse(parameters);
    }

    private static AuditQuery valid(String... pairs) {
        AuditQueryParameters.Result result = parse(pairs);
        assertThat(result).isInstanceOf(AuditQueryParameters.Valid.class);
        return ((AuditQueryParameters.Valid) result).query();
    }

    private static String invalid(String... pairs) {
        AuditQueryParameters.Result result = parse(pairs);
        assertThat(result).isInstanceOf(AuditQueryParameters.Invalid.class);
        return ((AuditQueryParameters.Invalid) result).message();
    }

    @Test
    void noParametersMeansTheNewest100() {
        AuditQuery query = valid();
        assertThat(query.limit()).isEqualTo(100);
        assertThat(query.from()).isEmpty();
        assertThat(query.actor()).isEmpty();
    }

    @Test
    void everyFilterIsRead() {
        AuditQuery query = valid("from", "2025-01-31T12:00:00Z", "to", "2025-01-31T14:00:00+02:00", "actor", "user:alice",
                "action", "delete", "limit", "1000");
        assertThat(query.from()).contains(Instant.parse("2025-01-31T12:00:00Z"));
        assertThat(query.to()).contains(Instant.parse("2025-01-31T12:00:00Z"));
        assertThat(query.actor()).contains("user:alice");
        assertThat(query.action()).contains("delete");
        assertThat(query.limit()).isEqualTo(1000);
    }

    @Test
    void anUnknownParameterIsRefused_aTypoMustNotAnswerEveryEntry() {
        assertThat(invalid("acter", "alice"))
                .isEqualTo("unknown parameter 'acter'; the parameters are from, to, actor, action, beforeSeq and limit");
        // a bidi override would reorder the message a browser or terminal shows; a cut keeps surrogate pairs whole
        assertThat(invalid("act\u202eor", "alice")).startsWith("unknown parameter 'act?or';");
        assertThat(invalid("x".repeat(39) + "\ud83d\ude00tail", "alice")).startsWith("unknown parameter '" + "x".repeat(39) + "…';");
    }

    @Test
    void limitOutsideOneToThousandOrNotANumberIsRefused() {
        for (String bad : new String[] {"0", "1001", "-1", "ten", "1e3", "", " 5", "99999999999"}) {
            assertThat(invalid("limit", bad)).as(bad).contains("'limit' must be a whole number from 1 to 1000");
        }
        assertThat(valid("limit", "1").limit()).isEqualTo(1);
    }

    @Test
    void timesMustBeIsoWithAZone() {
        for (String bad : new String[] {"yesterday", "2025-01-31", "2025-01-31T12:00:00", "1706702400", "2025-13-01T00:00:00Z"}) {
            assertThat(invalid("from", bad)).as(bad).startsWith("'from' must be an ISO-8601 time with a zone");
        }
        assertThat(invalid("to", "noon")).startsWith("'to' must be");
    }

    @Test
    void fromAfterToIsRefused() {
        assertThat(invalid("from", "2025-02-01T00:00:00Z", "to", "2025-01-01T00:00:00Z")).contains("is after 'to'");
    }

    @Test
    void repeatedParametersAndOversizedTextAreRefused() {
        assertThat(invalid("actor", "a", "actor", "b")).contains("'actor' is given 2 times");
        assertThat(invalid("actor", "x".repeat(257))).contains("'actor' must be 1 to 256");
        assertThat(invalid("action", "")).contains("'action' must be 1 to 64");
    }

    @Test
    void echoedValuesAreBoundedAndPrintable() {
        String message = invalid("limit", "1\n2" + "9".repeat(100));
        assertThat(message).doesNotContain("\n").hasSizeLessThan(150);
    }

    @Test
    void beforeSeqIsTheCursorOfTheNextPage_aWholeNumberOfAtLeastOne() {
        assertThat(valid("beforeSeq", "42").beforeSeq()).hasValue(42);
        assertThat(valid().beforeSeq()).isEmpty();
        for (String bad : new String[] {"0", "-1", "abc", "", " 5", "1.5", "1e3", "9999999999999999999"}) {
            assertThat(invalid("beforeSeq", bad)).as(bad).startsWith("'beforeSeq' must be a whole number of at least 1");
        }
        assertThat(invalid("beforeSeq", "1", "beforeSeq", "2")).isEqualTo("parameter 'beforeSeq' is given 2 times; give it once");
    }
}
