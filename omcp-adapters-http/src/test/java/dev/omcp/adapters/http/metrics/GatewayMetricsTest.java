package dev.omcp.adapters.http.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.audit.AuditRecording;
import dev.omcp.ports.audit.AuditSinkStatus;
import dev.omcp.ports.mcp.McpTransport;
import dev.omcp.ports.mcp.Refusal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Label values at /metrics come from a bounded set, whatever clients send. */
class GatewayMetricsTest {

    private static String scrape(GatewayMetrics metrics) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.scrape(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static long lines(String text, String prefix) {
        return text.lines().filter(line -> line.startsWith(prefix)).count();
    }

    @Test
    void madeUpHttpMethods_areCountedAsOther_soClientsCannotGrowTheSeries() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of("tools/list"));
        for (int i = 0; i < 500; i++) {
            // what Javalin reports for a method token or an X-HTTP-Method-Override value a client invented
            metrics.http("unmatched", "SECRET-" + i, 404, 0.001);
        }
        metrics.http("/mcp", "POST", 200, 0.001);

        String text = scrape(metrics);
        assertThat(text).doesNotContain("SECRET-");
        assertThat(text).contains("omcp_http_requests_total{method=\"(other)\",route=\"unmatched\",status=\"404\"} 500.0");
        assertThat(text).contains("omcp_http_requests_total{method=\"POST\",route=\"/mcp\",status=\"200\"} 1.0");
        assertThat(lines(text, "omcp_http_requests_total{")).isEqualTo(2);
    }

    @Test
    void thePerAddressLimits_areExportedFromZero_oneSeriesPerLimit() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        String fresh = scrape(metrics);
        assertThat(fresh).contains("omcp_address_limit_refusals_total{limit=\"api-requests\"} 0.0",
                "omcp_address_limit_refusals_total{limit=\"credential-failures\"} 0.0",
                "omcp_address_limit_uncounted_total{limit=\"api-requests\"} 0.0",
                "omcp_address_limit_uncounted_total{limit=\"credential-failures\"} 0.0");

        metrics.addressLimitRefused(AddressLimit.CREDENTIAL_FAILURES);
        metrics.addressLimitRefused(AddressLimit.CREDENTIAL_FAILURES);
        metrics.addressLimitUncounted(AddressLimit.API_REQUESTS);

        String text = scrape(metrics);
        assertThat(text).contains("omcp_address_limit_refusals_total{limit=\"credential-failures\"} 2.0",
                "omcp_address_limit_uncounted_total{limit=\"api-requests\"} 1.0");
        assertThat(lines(text, "omcp_address_limit_refusals_total{")).isEqualTo(AddressLimit.values().length);
    }

    @Test
    void everyStandardHttpMethod_keepsItsOwnName() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        for (String method : new String[] {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "QUERY"}) {
            metrics.http("/x", method, 200, 0.001);
        }
        String text = scrape(metrics);
        assertThat(text).doesNotContain("(other)");
        assertThat(lines(text, "omcp_http_requests_total{")).isEqualTo(10);
    }

    @Test
    void unknownMcpMethods_areCountedAsUnknown() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of("tools/list"));
        for (int i = 0; i < 100; i++) {
            metrics.mcp("made/up/" + i, "streamable-http", "error", 0.001);
        }
        metrics.mcp("", "websocket", "error", 0.001);
        String text = scrape(metrics);
        assertThat(text).doesNotContain("made/up/");
        assertThat(lines(text, "omcp_mcp_requests_total{")).isEqualTo(2);
    }

    @Test
    void loginRefusals_areCountedPerCode_fromZero_andAnUnlistedCodeIsOther() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        String fresh = scrape(metrics);
        for (String code : GatewayMetrics.LOGIN_REFUSAL_CODES) {
            assertThat(fresh).contains("omcp_login_refusals_total{code=\"" + code + "\"} 0.0");
        }

        metrics.loginRefused("OMCP_LOGIN_ADDRESS_TABLE_FULL");
        metrics.loginRefused("OMCP_LOGIN_RATE_LIMIT");
        metrics.loginRefused("OMCP_LOGIN_RATE_LIMIT");
        metrics.loginRefused("OMCP_MADE_UP");
        metrics.loginRefused("OMCP_SESSION_TOO_LARGE");

        String text = scrape(metrics);
        assertThat(text).contains("omcp_login_refusals_total{code=\"OMCP_LOGIN_ADDRESS_TABLE_FULL\"} 1.0")
                .contains("omcp_login_refusals_total{code=\"OMCP_LOGIN_RATE_LIMIT\"} 2.0")
                .contains("omcp_login_refusals_total{code=\"(other)\"} 1.0")
                .as("a sign-in refused because its session does not fit in the cookie has its own code, not (other)")
                .contains("omcp_login_refusals_total{code=\"OMCP_SESSION_TOO_LARGE\"} 1.0")
                .doesNotContain("OMCP_MADE_UP");
    }

    @Test
    void mcpRefusals_areExportedFromZero_onlyForTheTransportsEachReasonHappensOn() throws IOException {
        String fresh = scrape(new GatewayMetrics(Set.of()));
        long expected = 0;
        for (McpRefusalReason reason : McpRefusalReason.values()) {
            for (McpTransport transport : new McpTransport[] {McpTransport.STREAMABLE_HTTP, McpTransport.WEBSOCKET}) {
                String label = transport == McpTransport.WEBSOCKET ? "websocket" : "streamable-http";
                String series = "omcp_mcp_refusals_total{reason=\"" + reason.label() + "\",transport=\"" + label + "\"} 0.0";
                if (reason.happensOn(transport)) {
                    assertThat(fresh).contains(series);
                    expected++;
                } else {
                    assertThat(fresh).doesNotContain(series);
                }
            }
        }
        assertThat(lines(fresh, "omcp_mcp_refusals_total{")).isEqualTo(expected);
    }

    @Test
    void everyDispatcherRefusal_hasAReason_onBothTransports() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        for (Refusal refusal : Refusal.values()) {
            McpRefusalReason reason = McpRefusalReason.of(refusal);
            assertThat(reason.happensOn(McpTransport.STREAMABLE_HTTP)).as(refusal + " on Streamable HTTP").isTrue();
            metrics.mcpRefused(McpTransport.STREAMABLE_HTTP, reason);
        }
        // a pair no code path produces is still counted, under its own bounded labels
        metrics.mcpRefused(McpTransport.WEBSOCKET, McpRefusalReason.CONTENT_TYPE);
        String text = scrape(metrics);
        assertThat(text).contains("omcp_mcp_refusals_total{reason=\"protocol-version\",transport=\"streamable-http\"} 1.0")
                .contains("omcp_mcp_refusals_total{reason=\"content-type\",transport=\"websocket\"} 1.0");
    }

    @Test
    void auditSinkCounters_areReadAtEachScrape_withHelpThatSaysWhatToDo() throws IOException {
        GatewayMetrics metrics = new GatewayMetrics(Set.of());
        AtomicReference<AuditSinkStatus> webhook = new AtomicReference<>(
                new AuditSinkStatus("webhook", 0, 0, 0, 0, 0, Optional.empty(), Optional.empty()));
        AtomicReference<AuditRecording> recording = new AtomicReference<>(AuditRecording.OK);
        metrics.audit(recording::get, () -> List.of(webhook.get()));
        String fresh = scrape(metrics);
        assertThat(fresh).contains("omcp_audit_sink_lost_total{sink=\"webhook\"} 0.0");
        assertThat(fresh).contains("omcp_audit_recording 1.0");

        webhook.set(new AuditSinkStatus("webhook", 4, 10, 7, 2, 3, Optional.empty(), Optional.empty()));
        recording.set(AuditRecording.FAILING);
        String text = scrape(metrics);
        assertThat(text).contains("omcp_audit_sink_delivered_total{sink=\"webhook\"} 10.0");
        assertThat(text).contains("omcp_audit_sink_dead_lettered_total{sink=\"webhook\"} 7.0");
        assertThat(text).contains("omcp_audit_sink_overflowed_total{sink=\"webhook\"} 2.0");
        assertThat(text).contains("omcp_audit_sink_lost_total{sink=\"webhook\"} 3.0");
        assertThat(text).contains("omcp_audit_sink_queued{sink=\"webhook\"} 4.0");
        assertThat(text).contains("omcp_audit_recording 0.0");
        assertThat(text).containsPattern("# HELP omcp_audit_sink_lost_total .*dead-letter.*audit file");
    }
}
