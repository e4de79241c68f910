package dev.omcp.core.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionRangeTest {

    @ParameterizedTest(name = "{0} includes {1}: {2}")
    @CsvSource(delimiter = ';', value = {
            ">=0.1.0; 0.1.0; true",
            ">=0.1.0; 0.0.9; false",
            ">=0.1.0; 0.1.0-SNAPSHOT; true",
            ">= 1.2.0 <2.0.0; 1.9.9; true",
            ">= 1.2.0 <2.0.0; 2.0.0; false",
            ">1.2.0; 1.2.0; false",
            ">1.2; 1.2.9; false",
            ">1.2; 1.3.0; true",
            "<=1.2; 1.2.7; true",
            "<=1.2; 1.3.0; false",
            "<1.2.0; 1.1.99; true",
            "=1.2.3; 1.2.3; true",
            "1.2.3; 1.2.4; false",
            "1.2; 1.2.4; true",
            "1.x; 1.9.0; true",
            "1.x; 2.0.0; false",
            "*; 99.0.0; true",
            "'' ; 3.1.0; true",
            "^1.2.0; 1.99.0; true",
            "^1.2.0; 2.0.0; false",
            "^0.2.3; 0.2.9; true",
            "^0.2.3; 0.3.0; false",
            "^0.0.3; 0.0.3; true",
            "^0.0.3; 0.0.4; false",
            "~1.2.3; 1.2.9; true",
            "~1.2.3; 1.3.0; false",
            "~1; 1.9.0; true",
            "~1; 2.0.0; false",
            "<1.0.0 || >=3.0.0; 0.5.0; true",
            "<1.0.0 || >=3.0.0; 2.0.0; false",
            "<1.0.0 || >=3.0.0; 3.1.0; true",
            ">=1.0.0-beta.2; 1.0.0; true",
    })
    void rangesFollowTheNpmSyntaxAuthorsKnow(String range, String version, boolean included) {
        assertThat(VersionRange.parse(range).includes(SemanticVersion.parse(version).orElseThrow())).isEqualTo(included);
    }

    @ParameterizedTest
    @ValueSource(strings = {">=one", "1.2.3.4", ">>1.0.0", "latest", "1.0.0 - 2.0.0 - 3"})
    void somethingThatIsNoRange_isRefusedWithTheOffendingPart(String range) {
        assertThatThrownBy(() -> VersionRange.parse(range))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not a version comparator");
    }

    @ParameterizedTest
    @CsvSource({"1.0.0-alpha,1.0.0-alpha.1", "1.0.0-alpha.1,1.0.0-alpha.beta", "1.0.0-beta.2,1.0.0-beta.11", "1.0.0-rc.1,1.0.0", "1.9.0,1.10.0"})
    void semanticVersionsCompareBySemverPrecedence(String lower, String higher) {
        assertThat(SemanticVersion.parse(lower).orElseThrow()).isLessThan(SemanticVersion.parse(higher).orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "01.0.0", "1.0.0-", "x.y.z", ""})
    void invalidSemanticVersions_doNotParse(String text) {
        assertThat(SemanticVersion.parse(text)).isEmpty();
    }
}
