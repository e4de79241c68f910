package dev.omcp.adapters.http.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec 5.2 rule 5: the forms of OMCP_TRUST_PROXY. */
class TrustedProxiesTest {
    private static final List<String> CHAIN = List.of("203.0.113.9, 198.51.100.1", "10.0.0.5");

    @Test
    void unsetOrFalse_trustsNobody_forwardedHeadersAreIgnored() {
        for (String value : new String[] {null, "", "false", "FALSE", "0"}) {
            TrustedProxies none = TrustedProxies.parse(value);
            assertThat(none.enabled()).isFalse();
            assertThat(none.clientIp("127.0.0.1", CHAIN)).isEqualTo("127.0.0.1");
            assertThat(none.forwardedProto("127.0.0.1", List.of(), List.of("https"))).isEmpty();
        }
    }

    @Test
    void true_trustsEveryHop_theClientIsTheLeftMostEntry() {
        TrustedProxies all = TrustedProxies.parse("true");
        assertThat(all.enabled()).isTrue();
        assertThat(all.clientIp("192.0.2.1", CHAIN)).isEqualTo("203.0.113.9");
        assertThat(all.clientIp("192.0.2.1", List.of())).isEqualTo("192.0.2.1");
        assertThat(all.forwardedProto("192.0.2.1", List.of(), List.of("https"))).contains("https");
    }

    @Test
    void aForwardedEntryThatIsNoAddressLiteral_isNeverResolved_itStopsTheWalk() {
        // The client writes X-Forwarded-For: a name the JDK would send to DNS (one starting with a dot), or a
        // zone id it would look up among the network interfaces, would cost a lookup on the request's thread
        // for every request, chosen by anyone who can reach the gateway.
        String name = ".:.:" + Long.toHexString(System.nanoTime());
        TrustedProxies all = TrustedProxies.parse("true");
        assertThat(all.clientIp("192.0.2.1", List.of("203.0.113.9, " + name))).isEqualTo("192.0.2.1");
        assertThat(TrustedProxies.normalize(name)).isEmpty();
        assertThat(RecordingResolverProvider.LOOKED_UP).as("names sent to the resolver").doesNotContain(name);
        String zoned = "fe80::1%nosuchif" + Long.toHexString(System.nanoTime() & 0xfff);
        assertThat(all.clientIp("192.0.2.1", List.of(zoned))).as("the zone is no part of the client's address")
                .isEqualTo("fe80:0:0:0:0:0:0:1");
    }

    @Test
    void loopback_trustsOnlyLoopbackPeers() {
        TrustedProxies loopback = TrustedProxies.parse("loopback");
        assertThat(loopback.clientIp("127.0.0.1", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
        assertThat(loopback.clientIp("::1", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
        assertThat(loopback.clientIp("192.0.2.1", List.of("203.0.113.9"))).isEqualTo("192.0.2.1");
        // a forged entry behind a loopback proxy stops at the first non-loopback address
        assertThat(loopback.clientIp("127.0.0.1", List.of("6.6.6.6, 203.0.113.9"))).isEqualTo("203.0.113.9");
        assertThat(loopback.forwardedProto("192.0.2.1", List.of(), List.of("https"))).isEmpty();
        assertThat(loopback.forwardedProto("127.0.0.1", List.of(), List.of("HTTPS"))).contains("https");
    }

    @Test
    void anIpv4LookingEntryWithAnOctetOver255_isNoAddress_andNeverLookedUp() {
        // the JDK takes 999.1.1.1 for a host name and asks DNS for it: a client could make the gateway
        // send DNS queries by writing such entries into X-Forwarded-For
        assertThat(TrustedProxies.normalize("999.1.1.1")).isEmpty();
        assertThat(TrustedProxies.normalize("1.2.3.256")).isEmpty();
        assertThat(TrustedProxies.normalize("001.2.3.4")).contains("1.2.3.4");
        assertThat(TrustedProxies.parse("true").clientIp("192.0.2.1", List.of("999.1.1.1"))).isEqualTo("192.0.2.1");
        assertThatThrownBy(() -> TrustedProxies.parse("999.1.1.1")).hasMessageContaining("is not an IP address");
    }

    @Test
    void aHopCount_trustsTheNearestHops() {
        TrustedProxies one = TrustedProxies.parse("1");
        assertThat(one.clientIp("192.0.2.1", CHAIN)).isEqualTo("10.0.0.5");
        TrustedProxies two = TrustedProxies.parse("2");
        assertThat(two.clientIp("192.0.2.1", CHAIN)).isEqualTo("198.51.100.1");
        assertThat(TrustedProxies.parse("9").clientIp("192.0.2.1", CHAIN)).isEqualTo("203.0.113.9");
    }

    @Test
    void anAddressList_trustsExactlyThoseAddresses() {
        TrustedProxies list = TrustedProxies.parse("192.0.2.1, 10.0.0.5");
        assertThat(list.clientIp("192.0.2.1", CHAIN)).isEqualTo("198.51.100.1");
        assertThat(list.clientIp("192.0.2.2", CHAIN)).isEqualTo("192.0.2.2");
        TrustedProxies v6 = TrustedProxies.parse("::1");
        assertThat(v6.clientIp("0:0:0:0:0:0:0:1", List.of("203.0.113.9"))).isEqualTo("203.0.113.9");
    }

    @Test
    void garbageInTheChainStopsTheWalk() {
        TrustedProxies all = TrustedProxies.parse("true");
        assertThat(all.clientIp("192.0.2.1", List.of("<script>, 198.51.100.1"))).isEqualTo("198.51.100.1");
        assertThat(all.clientIp("192.0.2.1", List.of("unknown"))).isEqualTo("192.0.2.1");
        assertThat(all.clientIp("192.0.2.1", List.of("203.0.113.9:4711"))).isEqualTo("203.0.113.9");
        assertThat(all.forwardedProto("192.0.2.1", List.of(), List.of("gopher"))).isEmpty();
    }

    /** X-Forwarded-Proto as a trusted proxy chain writes it: the value of the hop whose sender is the client. */
    private static java.util.Optional<String> proto(String trust, String peer, List<String> forwardedFor, String... protoLines) {
        return TrustedProxies.parse(trust).forwardedProto(peer, forwardedFor, List.of(protoLines));
    }

    @Test
    void severalProtoLines_areOneList_theNearestLineIsTheTrustedProxys() {
        // HAProxy's add-header writes a line of its own after whatever the client sent: the servlet's
        // getHeader returned the client's line
        assertThat(proto("127.0.0.1", "127.0.0.1", List.of(), "http", "https")).contains("https");
        assertThat(proto("127.0.0.1", "127.0.0.1", List.of(), "https", "http")).contains("http");
        assertThat(proto("loopback", "127.0.0.1", List.of("203.0.113.9"), "https", "http")).contains("http");
    }

    @Test
    void aCommaList_isReadAtTheClientsHop_asXForwardedForIs() {
        // client 203.0.113.9 -https-> CDN 198.51.100.1 -http-> LB 10.0.0.5 -> gateway; each hop appends
        List<String> forwardedFor = List.of("203.0.113.9, 198.51.100.1");
        assertThat(proto("2", "10.0.0.5", forwardedFor, "https, http")).as("the client's own hop").contains("https");
        assertThat(proto("1", "10.0.0.5", forwardedFor, "https, http")).as("the CDN is the client at one hop").contains("http");
        // what the client wrote itself, left of the trusted hops, is never read
        assertThat(proto("2", "10.0.0.5", forwardedFor, "http, https, http")).contains("https");
        assertThat(proto("2", "10.0.0.5", forwardedFor, "gopher, https, http")).contains("https");
        // a client that claims https to a proxy that appends the plain http it really used
        assertThat(proto("loopback", "127.0.0.1", List.of("203.0.113.9"), "https, http")).contains("http");
        assertThat(proto("loopback", "127.0.0.1", List.of("203.0.113.9"), "HTTPS , ,http")).contains("http");
    }

    @Test
    void fewerProtoEntriesThanTrustedHops_areBelievedOnlyWhenTheyAgree() {
        // proxies that overwrite X-Forwarded-Proto (nginx's $scheme, a load balancer) leave one value for many hops
        List<String> forwardedFor = List.of("6.6.6.6, 203.0.113.9, 198.51.100.1");
        assertThat(proto("true", "10.0.0.5", forwardedFor, "https")).contains("https");
        assertThat(proto("3", "10.0.0.5", forwardedFor, "https", "https")).contains("https");
        // which of two disagreeing values is the client's cannot be told: not https
        assertThat(proto("3", "10.0.0.5", forwardedFor, "https, http")).isEmpty();
        assertThat(proto("3", "10.0.0.5", forwardedFor, "https, gopher")).isEmpty();
        assertThat(proto("3", "10.0.0.5", forwardedFor, "gopher")).isEmpty();
    }

    @Test
    void aTrustedPeerWithoutXForwardedFor_speaksForItsOwnConnection_anUntrustedOneNever() {
        assertThat(proto("127.0.0.1", "127.0.0.1", List.of(), "https")).contains("https");
        assertThat(proto("true", "192.0.2.1", List.of("unknown"), "https")).contains("https");
        assertThat(proto("127.0.0.1", "192.0.2.1", List.of(), "https")).isEmpty();
        assertThat(proto("127.0.0.1", "127.0.0.1", List.of())).isEmpty();
        assertThat(proto("127.0.0.1", "127.0.0.1", List.of(), " , ")).isEmpty();
    }

    @Test
    void invalidValuesNameTheAllowedForms() {
        assertThatThrownBy(() -> TrustedProxies.parse("proxy.example.com")).hasMessageContaining("not an IP address")
                .hasMessageContaining("loopback");
        assertThatThrownBy(() -> TrustedProxies.parse("99999")).hasMessageContaining("hop count");
    }
}
