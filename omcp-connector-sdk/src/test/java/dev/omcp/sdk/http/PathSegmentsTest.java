package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathSegmentsTest {
    @ParameterizedTest
    @ValueSource(strings = {".", "..", "./x", "../x", "a/.", "a/..", "a/./b", "a/../b", "%2e", "%2E%2e/x", "a/.%2E", "a/..?q=1",
        "a/.#f", "a//../b"})
    void dotSegments_plainOrEncoded_areSteps(String path) {
        assertThat(PathSegments.hasDotSegment(path)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a/b", "...", "a/.../b", ".a", "a.", "a/.b/..c", "%2e%2e%2e", "%2f", "%2", "a/%2", "a?x=..",
        "a?x=/../", "a#..", "v1:x", "a/%2e%2ex"})
    void everythingElse_isNot(String path) {
        assertThat(PathSegments.hasDotSegment(path)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc-._~XYZ019", "a b", "ü", "/?#%+&=;:@", "\0", "😀"})
    void encodedSegments_decodeBackToTheValue_andHoldNoReservedCharacter(String value) {
        String encoded = PathSegments.encode(value);
        assertThat(encoded).matches("[A-Za-z0-9._~%-]*");
        assertThat(java.net.URLDecoder.decode(encoded.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(value);
    }
}
