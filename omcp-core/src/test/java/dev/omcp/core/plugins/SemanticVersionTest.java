package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** semver.org 2.0.0 section 11: the precedence a downgrade check orders plugin versions by. */
class SemanticVersionTest {

    private static SemanticVersion v(String text) {
        return SemanticVersion.parse(text).orElseThrow(() -> new AssertionError("not a semantic version: " + text));
    }

    @Test
    void semver11_2_numbersCompareAsNumbers_notAsText() {
        assertThat(v("1.10.0")).isGreaterThan(v("1.9.0"));
        assertThat(v("2.0.0")).isGreaterThan(v("1.99.99"));
        assertThat(v("1.0.10")).isGreaterThan(v("1.0.9"));
        assertThat(v("0.10.0")).isGreaterThan(v("0.9.12"));
    }

    @Test
    void semver11_3_aPreReleaseIsLowerThanItsRelease_andHigherThanTheReleaseBefore() {
        assertThat(v("1.2.0-rc.1")).isLessThan(v("1.2.0"));
        assertThat(v("1.2.0-rc.1")).isGreaterThan(v("1.1.9"));
    }

    @Test
    void semver11_4_preReleaseIdentifiers_orderAsTheSpecificationsExample() {
        List<String> ascending = List.of("1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                "1.0.0-rc.1", "1.0.0");
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertThat(v(ascending.get(i))).as(ascending.get(i) + " < " + ascending.get(i + 1)).isLessThan(v(ascending.get(i + 1)));
        }
    }

    @Test
    void semver10_buildMetadataDoesNotChangeThePrecedence() {
        assertThat(v("1.2.0+build.7")).isEqualByComparingTo(v("1.2.0+build.8"));
        assertThat(v("1.2.0+build.7")).isEqualByComparingTo(v("1.2.0"));
    }

    @Test
    void whatIsNoSemanticVersion_doesNotParse() {
        for (String text : List.of("1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-a..b", "latest", "", "1.2.3-é", "1234567890.0.0")) {
            assertThat(SemanticVersion.parse(text)).as(text).isEmpty();
        }
    }

    @Test
    void aVersionWithTensOfThousandsOfPrereleaseIdentifiers_parses_withoutOverflowingTheStack() {
        // a hub's catalog and a manifest are another party's text; the matcher must not recurse once per identifier
        String text = "1.0.0-" + "a.".repeat(50_000) + "b";
        assertThat(SemanticVersion.parse(text)).hasValueSatisfying(version -> assertThat(version.prerelease()).hasSize(50_001));
        assertThat(SemanticVersion.parse(text + "..c")).isEmpty();
        assertThat(SemanticVersion.parse("1.0.0+" + "b.".repeat(50_000) + "c")).isPresent();
    }
}
