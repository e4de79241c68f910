package dev.omcp.adapters.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CspViolationReportsTest {
    @Test
    void loggedUrlsLoseQueryAndFragmentAndControlCharacters() {
        assertThat(CspViolationReports.safeUrl("https://gw.example.com/ui/app?token=secret#x")).isEqualTo("https://gw.example.com/ui/app");
        assertThat(CspViolationReports.safeUrl("inline")).isEqualTo("inline");
        assertThat(CspViolationReports.safeUrl("eval?x=1")).isEqualTo("eval");
        assertThat(CspViolationReports.safeUrl("https://a.example/\u0000\n")).doesNotContain("\n");
        assertThat(CspViolationReports.safeUrl("x".repeat(500))).hasSize(203);
    }

    @Test
    void aBackslashInAReportedValue_cannotEscapeTheClosingQuoteOfItsLogField() {
        // an unauthenticated browser (or anyone) posts the report: document="...\" would swallow the next field
        assertThat("document=\"" + CspViolationReports.safeUrl("https://a.example/x\\") + "\"")
                .isEqualTo("document=\"https://a.example/x?\"");
        assertThat(CspViolationReports.safeUrl("inline\\")).isEqualTo("inline?");
    }

    @Test
    void theEnforcedPolicyAllowsInlineHandlersButNoFraming_theStrictOneDoesNot() {
        assertThat(SecurityHeaders.ENFORCED).contains("script-src 'self' 'unsafe-inline'").contains("frame-ancestors 'none'");
        assertThat(SecurityHeaders.STRICT_REPORT_ONLY).doesNotContain("unsafe-inline").contains("report-uri /api/csp-violations");
    }
}
