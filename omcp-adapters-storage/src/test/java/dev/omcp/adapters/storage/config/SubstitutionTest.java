package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec 1.8 and DECISIONS.md: ${VAR} and ${VAR:-default}; an unset variable without default stays literal, reported once. */
class SubstitutionTest {
    private final List<String> reported = new ArrayList<>();
    private final Substitution substitution = new Substitution(Map.of("TOKEN", "s3cret", "EMPTY", ""), reported::add);

    @Test
    void replacesSetVariablesAndDefaults() {
        assertThat(substitution.apply("Bearer ${TOKEN}")).isEqualTo("Bearer s3cret");
        assertThat(substitution.apply("${MISSING:-fallback}/x")).isEqualTo("fallback/x");
        assertThat(substitution.apply("${EMPTY:-fallback}")).isEqualTo("fallback");
        assertThat(substitution.apply("${TOKEN:-fallback}")).isEqualTo("s3cret");
        assertThat(substitution.apply("no references, $TOKEN and $ {TOKEN} stay")).isEqualTo("no references, $TOKEN and $ {TOKEN} stay");
    }

    @Test
    void unsetVariablesStayLiteralAndAreReportedOnce() {
        assertThat(substitution.apply("${NOPE}")).isEqualTo("${NOPE}");
        assertThat(substitution.apply("a ${NOPE} b")).isEqualTo("a ${NOPE} b");
        assertThat(reported).containsExactly("NOPE");
    }

    @Test
    void valuesWithDollarsAndBackslashesAreInsertedVerbatim() {
        Substitution s = new Substitution(Map.of("P", "a$1\\b"), reported::add);
        assertThat(s.apply("${P}")).isEqualTo("a$1\\b");
    }

    @Test
    void aDoubledDollarIsALiteralReference() {
        assertThat(substitution.apply("$${TOKEN} is written, ${TOKEN} is replaced")).isEqualTo("${TOKEN} is written, s3cret is replaced");
        assertThat(substitution.apply("$$${TOKEN}")).isEqualTo("$${TOKEN}");
        assertThat(Substitution.hasReference("$${TOKEN}")).isTrue();
        assertThat(reported).isEmpty();
    }

    @Test
    void escapedText_readsBackAsItself_whateverTheEnvironmentHolds() {
        for (String literal : List.of("${TOKEN}", "$${TOKEN}", "$$${TOKEN}", "${NOPE:-d}", "a$", "${", "$${", "x${${TOKEN}}y",
                "plain", "$TOKEN", "${EMPTY:-${TOKEN}}")) {
            assertThat(substitution.apply(Substitution.escape(literal))).as(literal).isEqualTo(literal);
        }
        assertThat(reported).isEmpty();
    }

    @Test
    void unsetIn_namesTheVariablesLeftLiteral_andNamesIn_everyVariable() {
        assertThat(substitution.unsetIn("${NOPE}${TOKEN}${EMPTY}${GONE:-d}$${ESCAPED}${NOPE}")).containsExactly("NOPE");
        assertThat(Substitution.namesIn("${NOPE}${TOKEN}${GONE:-d}$${ESCAPED}${NOPE}")).containsExactly("NOPE", "TOKEN", "GONE");
    }
}
