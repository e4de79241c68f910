package dev.omcp.core.embeddedipv4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.ipenrich.IpAddress;
import dev.omcp.core.ipenrich.IpEnricher;
import dev.omcp.ports.egress.EgressVerdict;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code enrich_ips} and the egress guard read an IPv6 address that carries an IPv4 one alike: the IPv4 address
 * enrich_ips names in {@code ipv4} is the one the guard judges the IPv6 address by, in every form and for IPv4
 * addresses of every kind the guard tells apart. Only their public entry points are used, so a branch either of them
 * grew of its own would show here.
 */
class EnrichIpsAndEgressAgreementTest {
    private static final EgressRules STRICT = new EgressRules(false);
    private static final EgressRules OPTED_IN = new EgressRules(true);
    private static final IpEnricher ENRICHER = new IpEnricher(Optional.empty(), Optional.empty());

    /** One IPv4 address of each kind the guard tells apart. */
    private static final List<String> IPV4 = List.of("8.8.8.8", "10.1.2.3", "100.64.0.1", "127.0.0.1", "169.254.169.254",
            "169.254.10.10", "224.0.0.1", "255.255.255.255", "240.0.0.1", "192.0.2.45", "0.0.0.2", "198.18.0.1");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "ipv4-mapped, true",
        "ipv4-translated, true",
        "nat64, true",
        "6to4, true",
        "teredo, true",
        // deprecated: enrich_ips does not take its IPv4 address for a client's, the guard still judges by it
        "ipv4-compatible, false",
    })
    void theIpv4EnrichIpsAnswersFor_isTheOneTheEgressGuardJudges(String embedding, boolean answeredForIpv4) {
        for (String ipv4 : IPV4) {
            String ipv6 = spell(embedding).apply(ipv4);
            JsonObject answer = enrich(ipv6);

            assertThat(answer.getString("embedding")).as(ipv6).isEqualTo(embedding);
            assertThat(answer.getString("ipv4", "-")).as(ipv6).isEqualTo(answeredForIpv4 ? ipv4 : "-");
            assertThat(judged(STRICT.checkHost(ipv6))).as("default: " + ipv6).isEqualTo(judged(STRICT.checkHost(ipv4)));
            assertThat(judged(OPTED_IN.checkHost(ipv6))).as("opted in: " + ipv6).isEqualTo(judged(OPTED_IN.checkHost(ipv4)));
            if (answeredForIpv4) {
                assertThat(answer.getString("scope")).as(ipv6).isEqualTo(enrich(ipv4).getString("scope"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"2a01:4f8::/32", "2a01:4f8:100::/40", "2a01:4f8:122::/48", "2a01:4f8:122:300::/56", "2a01:4f8:122:344::/64",
        "2a01:4f8:122:344::/96", "64:ff9b:1:a00::/56"})
    void underAnOperatorsNat64Prefix_bothAnswerForTheIpv4AddressRfc6052Places(String cidr) {
        Nat64Prefix prefix = Nat64PrefixTest.prefix(cidr);
        Nat64Prefixes operators = new Nat64Prefixes(List.of(prefix));
        EgressRules strict = new EgressRules(false, operators);
        EgressRules optedIn = new EgressRules(true, operators);
        IpEnricher enricher = new IpEnricher(Optional.empty(), Optional.empty(), operators);
        for (String ipv4 : IPV4) {
            String ipv6 = under(prefix, EmbeddedIpv4Test.bits(ipv4));
            JsonObject answer = enricher.enrich(List.of(ipv6)).toJson().getJsonArray("results").getJsonObject(0);

            assertThat(answer.getString("embedding")).as(ipv6).isEqualTo("nat64");
            assertThat(answer.getString("nat64Prefix")).as(ipv6).isEqualTo(cidr);
            assertThat(answer.getString("ipv4", "-")).as(ipv6).isEqualTo(ipv4);
            assertThat(answer.getString("scope")).as(ipv6).isEqualTo(enrich(ipv4).getString("scope"));
            assertThat(judged(strict.checkHost(ipv6))).as("default: " + ipv6).isEqualTo(judged(STRICT.checkHost(ipv4)));
            assertThat(judged(optedIn.checkHost(ipv6))).as("opted in: " + ipv6).isEqualTo(judged(OPTED_IN.checkHost(ipv4)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"64:ff9b:1::808:808", "64:ff9b:1:ffff::a00:1", "64:ff9b:1::"})
    void aLocalUseNat64Address_namesNoIpv4_andTheGuardTakesItForPrivate(String ipv6) {
        JsonObject answer = enrich(ipv6);

        assertThat(answer.getString("embedding")).isEqualTo("nat64-local-use");
        assertThat(answer.containsKey("ipv4")).isFalse();
        assertThat(judged(STRICT.checkHost(ipv6))).isEqualTo(judged(STRICT.checkHost("10.0.0.1")));
        assertThat(OPTED_IN.checkHost(ipv6)).isEqualTo(OPTED_IN.checkHost("10.0.0.1"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"::", "::1", "2001:db8::1", "64:ff9b::1:808:808", "2003::1", "2a00:1450::5efe:c0a8:101"})
    void anAddressThatCarriesNoIpv4_isNoEmbeddingForEither(String ipv6) {
        assertThat(enrich(ipv6).containsKey("embedding")).isFalse();
        assertThat(EmbeddedIpv4.decode(bytesOf(ipv6))).isEmpty();
    }

    /**
     * The verdict without the note a refusal through NAT64 adds (which prefix, which IPv4 address: EgressRulesTest), so
     * that it compares with the IPv4 address's own.
     */
    private static String judged(EgressVerdict verdict) {
        return verdict instanceof EgressVerdict.Refused refused
                ? "refused: " + refused.reason().replaceFirst(": the IPv6 address .*?(?=; set |, which is never allowed)", "")
                : "allowed";
    }

    private static JsonObject enrich(String address) {
        return ENRICHER.enrich(List.of(address)).toJson().getJsonArray("results").getJsonObject(0);
    }

    private static byte[] bytesOf(String ipv6) {
        return STRICT.literalAddress(ipv6).orElseThrow();
    }

    /** How each form writes an IPv4 address inside an IPv6 one. */
    private static Function<String, String> spell(String embedding) {
        return switch (embedding) {
            case "ipv4-mapped" -> v4 -> "::ffff:" + v4;
            case "ipv4-translated" -> v4 -> "::ffff:0:" + v4;
            case "ipv4-compatible" -> v4 -> "::" + v4;
            case "nat64" -> v4 -> "64:ff9b::" + v4;
            case "6to4" -> v4 -> "2002:" + groups(v4, 0) + "::1";
            // server 65.54.227.120, port 40000 and the client's address inverted (RFC 4380 section 4)
            case "teredo" -> v4 -> "2001:0:4136:e378:8000:63bf:" + groups(v4, 0xFFFF_FFFFL);
            default -> throw new IllegalArgumentException(embedding);
        };
    }

    /** The address under {@code prefix} that carries {@code ipv4} where RFC 6052 section 2.2 puts it, octet "u" zero. */
    private static String under(Nat64Prefix prefix, long ipv4) {
        long hi = prefix.hi();
        long lo = prefix.lo();
        switch (prefix.length()) {
            case 32 -> hi |= ipv4;
            case 40 -> { hi |= ipv4 >>> 8; lo |= (ipv4 & 0xFF) << 48; }
            case 48 -> { hi |= ipv4 >>> 16; lo |= (ipv4 & 0xFFFF) << 40; }
            case 56 -> { hi |= ipv4 >>> 24; lo |= (ipv4 & 0xFF_FFFF) << 32; }
            case 64 -> lo |= ipv4 << 24;
            default -> lo |= ipv4;
        }
        return new IpAddress(false, hi, lo).toString();
    }

    /** The IPv4 address as two hex groups, its bits XORed with {@code mask}. */
    private static String groups(String v4, long mask) {
        long bits = EmbeddedIpv4Test.bits(v4) ^ mask;
        return Long.toHexString(bits >>> 16) + ":" + Long.toHexString(bits & 0xFFFF);
    }
}
