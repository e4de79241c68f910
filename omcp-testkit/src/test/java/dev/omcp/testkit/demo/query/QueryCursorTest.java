package dev.omcp.testkit.demo.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class QueryCursorTest {
    /** LogQL's rules, as the simulated Loki reads them. */
    private static final QueryDialect STRICT = new QueryDialect("\"`", "_", "", false, false);
    /** PromQL's rules, as the simulated Prometheus reads them. */
    private static final QueryDialect LENIENT = new QueryDialect("\"'`", "_:", "_", true, true);

    /** Carries the cursor's error unworded, so a test can see exactly what was found where. */
    private static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SyntaxError error;

        Failed(SyntaxError error) {
            super(error.toString());
            this.error = error;
        }
    }

    private static QueryCursor strict(String text) {
        return new QueryCursor(text, STRICT, Failed::new);
    }

    private static QueryCursor lenient(String text) {
        return new QueryCursor(text, LENIENT, Failed::new);
    }

    private static SyntaxError failure(ThrowingCallable read) {
        Failed failed = catchThrowableOfType(Failed.class, read);
        assertThat(failed).as("a syntax error").isNotNull();
        return failed.error;
    }

    @Test
    void peekingPastEitherEnd_seesNul_andRestIsEmptyAtTheEnd() {
        QueryCursor cursor = strict("ab");
        assertThat(cursor.peek(-1)).isEqualTo('\0');
        cursor.advance(2);
        assertThat(cursor.atEnd()).isTrue();
        assertThat(cursor.peek()).isEqualTo('\0');
        assertThat(cursor.peek(-1)).isEqualTo('b');
        assertThat(cursor.rest()).isEmpty();
    }

    @Test
    void takeWhile_stopsAtTheEnd_evenWhenThePredicateWouldTakeNul() {
        QueryCursor cursor = strict("a b");
        assertThat(cursor.takeWhile(c -> !Character.isWhitespace(c))).isEqualTo("a");
        cursor.skipSpace();
        assertThat(cursor.takeWhile(c -> true)).isEqualTo("b");
        assertThat(cursor.takeWhile(c -> true)).isEmpty();
        assertThat(cursor.since(0)).isEqualTo("a b");
    }

    @Test
    void symbols_areTriedInOrderAfterWhitespace_andNoMatchLeavesTheCursorAfterTheWhitespace() {
        QueryCursor cursor = strict("  =~ x");
        assertThat(cursor.symbol("=", "=~")).isEqualTo("=");
        assertThat(cursor.rest()).isEqualTo("~ x");
        assertThat(cursor.symbol("!=")).isNull();
        assertThat(cursor.position()).isEqualTo(3);
    }

    @Test
    void aKeyword_isAWholeWord_inTheDialectsCase() {
        assertThat(strict("by (job)").keyword("by", "without")).isEqualTo("by");
        assertThat(strict("BY (job)").keyword("by")).isNull();
        assertThat(lenient("BY (job)").keyword("by")).as("returned as asked for").isEqualTo("by");
        assertThat(strict("bye").keyword("by")).isNull();
        assertThat(strict("by").keyword("by")).as("at the end of the text").isEqualTo("by");
    }

    @Test
    void anUnderscoreEndsAKeyword_onlyWhereTheDialectSaysItDoesNotContinueAWord() {
        assertThat(strict("and_b").keyword("and")).isEqualTo("and");
        assertThat(lenient("and_b").keyword("and")).isNull();
        QueryCursor cursor = lenient(" and");
        assertThat(cursor.atKeyword("and")).as("atKeyword does not skip whitespace").isFalse();
    }

    @Test
    void anIdentifier_neverStartsWithADigit_andHoldsTheDialectsSymbols() {
        QueryCursor digits = strict(" 5xx");
        assertThat(digits.identifier()).isNull();
        assertThat(digits.position()).isEqualTo(1);
        assertThat(strict("job:rate5m").identifier()).isEqualTo("job");
        assertThat(lenient("job:rate5m").identifier()).isEqualTo("job:rate5m");
        assertThat(strict("").identifier()).isNull();
    }

    @Test
    void rewinding_readsATokenAgain() {
        QueryCursor cursor = strict("level=\"x\"");
        String word = cursor.identifier();
        cursor.rewind(cursor.position() - word.length());
        assertThat(cursor.identifier()).isEqualTo("level");
    }

    @Test
    void expect_movesPastTheCharacter_orSaysWhatWasWantedWhere() {
        QueryCursor cursor = strict(" (x");
        cursor.expect('(');
        assertThat(cursor.rest()).isEqualTo("x");
        assertThat(failure(() -> cursor.expect(')'))).isEqualTo(new SyntaxError.Expected(2, ')'));
        cursor.advance();
        assertThat(failure(() -> cursor.expect(']'))).as("at the end").isEqualTo(new SyntaxError.Expected(3, ']'));
    }

    @Test
    void aDoubleQuotedString_readsEscapes_andKeepsTheBackslashOfOnesItDoesNotKnow() {
        assertThat(strict("\"a\\\"b\\\\c\\nd\\te\\qf\"").string()).isEqualTo("a\"b\\c\nd\te\\qf");
        assertThat(strict("\"it\\'s\"").string()).as("a single quote is no quote here").isEqualTo("it\\'s");
        assertThat(lenient("\"it\\'s\"").string()).isEqualTo("it's");
        assertThat(lenient("\"a\\`b\"").string()).as("a backtick is never escaped").isEqualTo("a\\`b");
    }

    @Test
    void aRawString_keepsEveryBackslash() {
        assertThat(strict("`a\\nb\\\"`").string()).isEqualTo("a\\nb\\\"");
    }

    @Test
    void singleQuotes_openAStringOnlyInDialectsThatHaveThem() {
        assertThat(lenient(" 'x'").string()).isEqualTo("x");
        assertThat(failure(() -> strict(" 'x'").string())).isEqualTo(new SyntaxError.NotAString(1));
        assertThat(failure(() -> strict("").string())).as("at the end").isEqualTo(new SyntaxError.NotAString(0));
    }

    @Test
    void aStringTheTextEndsIn_isUnterminated_evenAfterABackslash() {
        assertThat(failure(() -> strict("\"abc").string())).isEqualTo(new SyntaxError.UnterminatedString(4));
        assertThat(failure(() -> strict("\"abc\\").string())).isEqualTo(new SyntaxError.UnterminatedString(5));
        assertThat(failure(() -> strict("\"abc\\\"").string())).as("the quote is escaped").isEqualTo(new SyntaxError.UnterminatedString(6));
    }

    @Test
    void aDuration_addsItsParts_andTellsMillisecondsFromMinutes() {
        assertThat(strict(" 1h30m").durationMillis()).isEqualTo(5_400_000L);
        assertThat(strict("500ms").durationMillis()).isEqualTo(500L);
        assertThat(strict("1w1d1s").durationMillis()).isEqualTo(604_800_000L + 86_400_000L + 1_000L);
        QueryCursor cursor = strict("5m]");
        assertThat(cursor.durationMillis()).isEqualTo(300_000L);
        assertThat(cursor.rest()).isEqualTo("]");
    }

    @Test
    void years_areAUnitOnlyInDialectsThatCountThem() {
        assertThat(lenient("1y").durationMillis()).isEqualTo(31_536_000_000L);
        assertThat(failure(() -> strict("1y").durationMillis())).isEqualTo(new SyntaxError.BadDurationUnit(2, "1y"));
    }

    @Test
    void anUnknownUnit_isReadAsOneCharacter_andTheErrorQuotesTheDurationThroughIt() {
        assertThat(failure(() -> strict("1h5x]").durationMillis())).isEqualTo(new SyntaxError.BadDurationUnit(4, "1h5x"));
        assertThat(failure(() -> strict("5M").durationMillis())).as("units are lower case").isEqualTo(new SyntaxError.BadDurationUnit(2, "5M"));
    }

    @Test
    void aDurationCutShortByTheEnd_hasNoUnit() {
        assertThat(failure(() -> strict("5").durationMillis())).isEqualTo(new SyntaxError.BadDurationUnit(1, "5"));
    }

    @Test
    void noDigits_isNoDuration() {
        assertThat(failure(() -> strict(" m").durationMillis())).isEqualTo(new SyntaxError.NotADuration(1));
        assertThat(failure(() -> strict("").durationMillis())).isEqualTo(new SyntaxError.NotADuration(0));
    }
}
