package dev.omcp.adapters.http.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DNS-rebinding rules of the MCP transport specification (issue 2 item 6): Origin absent,
 * same-origin or listed in OMCP_ALLOWED_ORIGINS is accepted, anything else refused; a gateway bound
 * to loopback answers only to loopback Host names plus OMCP_ALLOWED_HOSTS.
 */
class HostOriginGuardTest {
    private final HostOriginGuard loopback = new HostOriginGuard("127.0.0.1", List.of(), List.of("https://ui.example.com"));

    private static String refusalCode(HostOriginGuard.Verdict verdict) {
        return verdict instanceof HostOriginGuard.Verdict.Refused refused ? refused.code() : "allowed";
    }

    @Test
    void aLoopbackGateway_answersTheLoopbackNamesOnAnyPort_andRefusesOtherHosts() {
        for (String host : List.of("localhost:3000", "127.0.0.1:3000", "[::1]:3000", "LOCALHOST", "127.0.0.1")) {
            assertThat(refusalCode(loopback.check(host, null))).as(host).isEqualTo("allowed");
        }
        for (String host : List.of("evil.example:3000", "evil.example", "127.0.0.2:3000", "localhost.evil.example", "[::2]:3000")) {
            assertThat(refusalCode(loopback.check(host, null))).as(host).isEqualTo("OMCP_HOST_REJECTED");
        }
        assertThat(refusalCode(loopback.check(null, null))).isEqualTo("OMCP_HOST_REJECTED");
        assertThat(refusalCode(loopback.check(" ", null))).isEqualTo("OMCP_HOST_REJECTED");
    }

    @Test
    void aGatewayBoundToLoopbackSpelledAnotherWay_isStillALoopbackGateway() {
        // the bind address in full IPv6 form, bracketed, or IPv4-mapped is loopback all the same: taking it for a
        // public bind would answer any Host, which is what a DNS-rebinding page needs
        for (String bind : List.of("0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]", "::ffff:127.0.0.1", "[::FFFF:7f00:1]")) {
            HostOriginGuard guard = new HostOriginGuard(bind, List.of(), List.of());
            assertThat(refusalCode(guard.check("evil.example:3000", null))).as(bind).isEqualTo("OMCP_HOST_REJECTED");
            assertThat(refusalCode(guard.check("localhost:3000", null))).as(bind).isEqualTo("allowed");
        }
        assertThat(HostOriginGuard.isLoopback("::2")).isFalse();
        assertThat(HostOriginGuard.isLoopback("fe80::1")).isFalse();
        assertThat(HostOriginGuard.isLoopback("0.0.0.0")).isFalse();
        // a name is no loopback literal, whatever it starts with: it may resolve anywhere
        assertThat(HostOriginGuard.isLoopback("127.0.0.1.example.com")).isFalse();
    }

    @Test
    void aHostRefusedOffLoopback_isToldWhichNamesThisGatewayAnswersTo() {
        HostOriginGuard restricted = new HostOriginGuard("0.0.0.0", List.of("omcp.example.com"), List.of());
        HostOriginGuard.Verdict.Refused refused = (HostOriginGuard.Verdict.Refused) restricted.check("evil.example", null);
        assertThat(refused.message()).isEqualTo("Host 'evil.example' is not allowed: this gateway answers only to the names in"
                + " OMCP_ALLOWED_HOSTS; add the name clients use there");
        HostOriginGuard loopback = new HostOriginGuard("127.0.0.1", List.of(), List.of());
        assertThat(((HostOriginGuard.Verdict.Refused) loopback.check("evil.example", null)).message())
                .contains("a gateway bound to loopback answers only to localhost, 127.0.0.1 and [::1]");
    }

    @Test
    void allowedHosts_addNamesToALoopbackGateway_andRestrictAnyOtherGateway() {
        HostOriginGuard listed = new HostOriginGuard("127.0.0.1", List.of("omcp.internal"), List.of());
        assertThat(refusalCode(listed.check("omcp.internal:3000", null))).isEqualTo("allowed");
        assertThat(refusalCode(listed.check("localhost:3000", null))).isEqualTo("allowed");
        assertThat(refusalCode(listed.check("evil.example", null))).isEqualTo("OMCP_HOST_REJECTED");

        // behind an ingress the gateway cannot guess its names: any Host until the operator lists them
        HostOriginGuard open = new HostOriginGuard("0.0.0.0", List.of(), List.of());
        assertThat(refusalCode(open.check("omcp.example.com", null))).isEqualTo("allowed");
        HostOriginGuard restricted = new HostOriginGuard("0.0.0.0", List.of("omcp.example.com"), List.of());
        assertThat(refusalCode(restricted.check("omcp.example.com:443", null))).isEqualTo("allowed");
        assertThat(refusalCode(restricted.check("evil.example", null))).isEqualTo("OMCP_HOST_REJECTED");
        assertThat(refusalCode(restricted.check("localhost", null))).as("loopback names are not implied off loopback")
                .isEqualTo("OMCP_HOST_REJECTED");
    }

    @Test
    void offLoopback_theProbesAnswerAnyHost_sinceKubeletAndPrometheusNameThePodsAddress() {
        HostOriginGuard restricted = new HostOriginGuard("0.0.0.0", List.of("omcp.example.com"), List.of());
        // a kubelet probe, a Prometheus scrape by pod address, a container's own health check
        for (String host : List.of("10.1.2.3:3000", "[fd00::7]:3000", "localhost:3000", "omcp.example.com")) {
            assertThat(refusalCode(restricted.checkProbe(host, null, false))).as(host).isEqualTo("allowed");
        }
        assertThat(refusalCode(restricted.checkProbe(null, null, false))).as("an HTTP/1.0 probe without Host").isEqualTo("allowed");
        assertThat(refusalCode(restricted.checkProbe("10.1.2.3:3000", "https://evil.example", false)))
                .as("a page of another origin is refused as on every route").isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(refusalCode(restricted.check("10.1.2.3:3000", null))).as("every other route keeps the list")
                .isEqualTo("OMCP_HOST_REJECTED");
    }

    @Test
    void onLoopback_theProbesKeepTheHostCheck_soARebindingPageCannotReadThem() {
        // local probes use the loopback names; a laptop's gateway keeps its DNS-rebinding guard whole
        assertThat(refusalCode(loopback.checkProbe("localhost:3000", null, false))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.checkProbe("evil.example:3000", null, false))).isEqualTo("OMCP_HOST_REJECTED");
    }

    @Test
    void aListedOriginThatSpellsOutItsDefaultPort_matchesWhatBrowsersSend() {
        // browsers leave the scheme's default port out of Origin: a listed https://ui.example.com:443 is that origin
        HostOriginGuard listed = new HostOriginGuard("127.0.0.1", List.of(), List.of("https://ui.example.com:443", "http://ops.example:80/"));
        assertThat(refusalCode(listed.check("127.0.0.1:3000", "https://ui.example.com"))).isEqualTo("allowed");
        assertThat(refusalCode(listed.check("127.0.0.1:3000", "http://ops.example"))).isEqualTo("allowed");
        assertThat(refusalCode(listed.check("127.0.0.1:3000", "http://ui.example.com"))).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(refusalCode(listed.check("127.0.0.1:3000", "https://ui.example.com:8443"))).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(listed.isListedOrigin("https://ui.example.com")).isTrue();
    }

    @Test
    void anAbsentOrSameOrigin_isAccepted() {
        assertThat(refusalCode(loopback.check("127.0.0.1:3000", null))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.check("127.0.0.1:3000", "http://127.0.0.1:3000"))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.check("localhost:3000", "http://LOCALHOST:3000/"))).isEqualTo("allowed");
    }

    @Test
    void theSchemesDefaultPort_isTheSameOrigin_whetherHostOrOriginSpellsItOut() {
        HostOriginGuard ingress = new HostOriginGuard("0.0.0.0", List.of(), List.of());
        assertThat(refusalCode(ingress.check("omcp.example.com:443", "https://omcp.example.com"))).isEqualTo("allowed");
        assertThat(refusalCode(ingress.check("omcp.example.com", "https://omcp.example.com:443"))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.check("127.0.0.1:80", "http://127.0.0.1"))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.check("[::1]:80", "http://[::1]"))).isEqualTo("allowed");
        assertThat(refusalCode(ingress.check("omcp.example.com:80", "https://omcp.example.com"))).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(refusalCode(ingress.check("omcp.example.com:8443", "https://omcp.example.com"))).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(refusalCode(ingress.check("omcp.example.com", "https://omcp.example.com:8443"))).isEqualTo("OMCP_ORIGIN_REJECTED");
    }

    @Test
    void overHttps_aPlainHttpPageOfTheSameName_isAnotherOrigin() {
        // anyone on the network path can write a plain-HTTP page of the gateway's name
        HostOriginGuard ingress = new HostOriginGuard("0.0.0.0", List.of(), List.of("http://ops.example"));
        for (String host : List.of("omcp.example.com", "omcp.example.com:443")) {
            HostOriginGuard.Verdict verdict = ingress.check(host, "http://omcp.example.com", true);
            assertThat(refusalCode(verdict)).as(host).isEqualTo("OMCP_ORIGIN_REJECTED");
            assertThat(((HostOriginGuard.Verdict.Refused) verdict).message()).contains("OMCP_ALLOWED_ORIGINS");
            assertThat(refusalCode(ingress.check(host, "https://omcp.example.com", true))).as(host).isEqualTo("allowed");
        }
        assertThat(refusalCode(ingress.check("omcp.example.com:80", "http://omcp.example.com", true))).isEqualTo("OMCP_ORIGIN_REJECTED");
        assertThat(refusalCode(ingress.check("omcp.example.com", "http://ops.example", true))).as("a listed origin is the operator's word")
                .isEqualTo("allowed");
    }

    @Test
    void overPlainHttp_theHttpPageIsTheSameOrigin_andAnHttpsOneToo_asATlsProxyNotTrustedHandsItOn() {
        assertThat(refusalCode(loopback.check("127.0.0.1:3000", "http://127.0.0.1:3000", false))).isEqualTo("allowed");
        HostOriginGuard ingress = new HostOriginGuard("0.0.0.0", List.of(), List.of());
        assertThat(refusalCode(ingress.check("omcp.example.com", "https://omcp.example.com", false))).isEqualTo("allowed");
    }

    @Test
    void aPageOfAnotherSchemeOnTheGatewaysAuthority_isNoSameOrigin() {
        // an extension or other non-web page whose authority happens to spell the Host is not a page of this gateway
        for (String origin : List.of("chrome-extension://127.0.0.1:3000", "ws://127.0.0.1:3000", "ftp://127.0.0.1:3000")) {
            assertThat(refusalCode(loopback.check("127.0.0.1:3000", origin))).as(origin).isEqualTo("OMCP_ORIGIN_REJECTED");
        }
    }

    @Test
    void aListedOrigin_isAccepted_andOnlyItIsListedForCors() {
        assertThat(refusalCode(loopback.check("127.0.0.1:3000", "https://ui.example.com"))).isEqualTo("allowed");
        assertThat(refusalCode(loopback.check("127.0.0.1:3000", "https://UI.example.com/"))).isEqualTo("allowed");
        assertThat(loopback.isListedOrigin("https://ui.example.com")).isTrue();
        assertThat(loopback.isListedOrigin("http://127.0.0.1:3000")).as("same-origin needs no CORS").isFalse();
        assertThat(loopback.isListedOrigin(null)).isFalse();
    }

    @Test
    void anyOtherOrigin_isRefusedWithTheSettingToUse() {
        for (String origin : List.of("https://evil.example", "http://127.0.0.1:3001", "https://ui.example.com:8443",
                "http://ui.example.com", "null", "not a url")) {
            HostOriginGuard.Verdict verdict = loopback.check("127.0.0.1:3000", origin);
            assertThat(refusalCode(verdict)).as(origin).isEqualTo("OMCP_ORIGIN_REJECTED");
            assertThat(((HostOriginGuard.Verdict.Refused) verdict).message()).contains("OMCP_ALLOWED_ORIGINS");
        }
    }

    @Test
    void refusalsQuoteHostileHeadersOnlyPrintableAndShort() {
        String message = ((HostOriginGuard.Verdict.Refused) loopback.check("127.0.0.1:3000", "https://evil\r\n.example" + "x".repeat(500)))
                .message();
        assertThat(message).doesNotContain("\r").doesNotContain("\n").hasSizeLessThan(400);
    }
}
