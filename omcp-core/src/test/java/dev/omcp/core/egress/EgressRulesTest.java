package dev.omcp.core.egress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.embeddedipv4.Nat64Prefix;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.core.ipenrich.IpAddress;
import dev.omcp.ports.egress.EgressVerdict;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec 5.9: every spelling of a private, loopback or metadata address is judged by the address it means. */
class EgressRulesTest {
    private final EgressRules strict = new EgressRules(false);
    private final EgressRules optedIn = new EgressRules(true);

    // url, verdict without opt-in, verdict with OMCP_ALLOW_PRIVATE_BACKENDS=true
    @ParameterizedTest(name = "{0}: default {1}, opted in {2}")
    @CsvSource(delimiter = '|', textBlock = """
            http://93.184.216.34/                      | allow  | allow
            https://prometheus.example.com:9090/api    | allow  | allow
            http://8.8.8.8:9090                        | allow  | allow
            http://[2606:4700:4700::1111]/             | allow  | allow
            http://127.0.0.1:9090/                     | refuse | allow
            http://127.1/                              | refuse | refuse
            http://127.0.1/                            | refuse | refuse
            http://2130706433/                         | refuse | allow
            http://0x7f000001/                         | refuse | allow
            http://0x7f.0x0.0x0.0x1/                   | refuse | refuse
            http://0177.0.0.1/                         | refuse | allow
            http://0177.1/                             | refuse | refuse
            http://017700000001/                       | refuse | allow
            http://127.0.0.1./                         | refuse | refuse
            http://[::1]/                              | refuse | allow
            http://[0:0:0:0:0:0:0:1]/                  | refuse | allow
            http://[::ffff:127.0.0.1]/                 | refuse | allow
            http://[::ffff:7f00:1]/                    | refuse | allow
            http://[::127.0.0.1]/                      | refuse | allow
            http://10.0.0.5/                           | refuse | allow
            http://172.16.0.1/                         | refuse | allow
            http://172.31.255.255/                     | refuse | allow
            http://172.32.0.1/                         | allow  | allow
            http://192.168.1.10/                       | refuse | allow
            http://167772165/                          | refuse | allow
            http://0xc0a80001/                         | refuse | allow
            http://100.64.0.1/                         | refuse | allow
            http://100.127.255.254/                    | refuse | allow
            http://100.128.0.1/                        | allow  | allow
            http://[fd12:3456:789a::1]/                | refuse | allow
            http://[fc00::1]/                          | refuse | allow
            http://[::ffff:10.1.2.3]/                  | refuse | allow
            http://[2002:c0a8:0101::1]/                | refuse | allow
            http://[2002:5db8:d822::1]/                | allow  | allow
            http://[64:ff9b::10.0.0.1]/                | refuse | allow
            http://[64:ff9b::7f00:1]/                  | refuse | allow
            http://[64:ff9b::8.8.8.8]/                 | allow  | allow
            http://169.254.169.254/latest/meta-data/   | refuse | refuse
            http://2852039166/                         | refuse | refuse
            http://0xa9fea9fe/                         | refuse | refuse
            http://0251.0376.0251.0376/                | refuse | refuse
            http://169.254.43518/                      | refuse | refuse
            http://[::ffff:169.254.169.254]/           | refuse | refuse
            http://[::ffff:a9fe:a9fe]/                 | refuse | refuse
            http://[2002:a9fe:a9fe::]/                 | refuse | refuse
            http://[64:ff9b::169.254.169.254]/         | refuse | refuse
            http://[64:ff9b:1::808:808]/               | refuse | allow
            http://[::ffff:0:127.0.0.1]/               | refuse | allow
            http://[::ffff:0:8.8.8.8]/                 | allow  | allow
            http://[::ffff:0:169.254.169.254]/         | refuse | refuse
            http://[::8.8.8.8]/                        | allow  | allow
            http://[::169.254.169.254]/                | refuse | refuse
            http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/ | refuse | allow
            http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/ | allow  | allow
            http://[2001:0:4136:e378:8000:63bf:5601:5601]/ | refuse | refuse
            http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/ | refuse | refuse
            http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/ | refuse | allow
            http://[fd00:ec2::254]/                    | refuse | refuse
            http://100.100.100.200/                    | refuse | refuse
            http://169.254.170.2/v2/credentials        | refuse | refuse
            http://metadata.google.internal/           | refuse | refuse
            http://METADATA.GOOGLE.INTERNAL./          | refuse | refuse
            http://169.254.10.10/                      | refuse | refuse
            http://[fe80::1]/                          | refuse | refuse
            http://[fe80::1%25eth0]/                   | refuse | refuse
            http://0.0.0.0/                            | refuse | refuse
            http://0/                                  | refuse | refuse
            http://[::]/                               | refuse | refuse
            http://224.0.0.1/                          | refuse | refuse
            http://255.255.255.255/                    | refuse | refuse
            http://[ff02::1]/                          | refuse | refuse
            http://240.0.0.1/                          | refuse | refuse
            http://192.0.2.10/                         | refuse | refuse
            http://[2001:db8::1]/                      | refuse | refuse
            http://4294967296/                         | refuse | refuse
            http://256.256.256.256/                    | refuse | refuse
            ftp://prometheus.example.com/              | refuse | refuse
            file:///etc/passwd                         | refuse | refuse
            gopher://127.0.0.1:6379/                   | refuse | refuse
            javascript:alert(1)                        | refuse | refuse
            prometheus.example.com:9090                | refuse | refuse
            http://user:secret@prometheus.example.com/ | refuse | refuse
            http:///nohost                             | refuse | refuse
            http://under_score.example.com/            | refuse | refuse
            """)
    void judgesEveryForm(String url, String withoutOptIn, String withOptIn) {
        assertThat(verdict(strict, url)).as("default: " + url).isEqualTo(withoutOptIn);
        assertThat(verdict(optedIn, url)).as("opted in: " + url).isEqualTo(withOptIn);
    }

    @Test
    void addressesJavaCannotParseAreStillNamedByWhatTheyMean() {
        // java.net.URI has no host for 127.1; the guard still reads it as loopback
        String reason = ((EgressVerdict.Refused) strict.checkUrl("http://127.1/")).reason();
        assertThat(reason).contains("loopback");
        String optedInReason = ((EgressVerdict.Refused) optedIn.checkUrl("http://127.1/")).reason();
        assertThat(optedInReason).contains("dotted form");
    }

    private static String verdict(EgressRules rules, String url) {
        return rules.checkUrl(url).allowed() ? "allow" : "refuse";
    }

    @Test
    void refusalReasonNamesTheSettingButNeverTheUrl() {
        EgressVerdict verdict = strict.checkUrl("http://user:hunter2@10.0.0.1/secret-path");
        assertThat(verdict).isInstanceOf(EgressVerdict.Refused.class);
        String reason = ((EgressVerdict.Refused) verdict).reason();
        assertThat(reason).doesNotContain("hunter2").doesNotContain("secret-path").doesNotContain("10.0.0.1");

        String privateReason = ((EgressVerdict.Refused) strict.checkUrl("http://10.0.0.1/")).reason();
        assertThat(privateReason).contains("private").contains("OMCP_ALLOW_PRIVATE_BACKENDS=true");

        String metadataReason = ((EgressVerdict.Refused) optedIn.checkUrl("http://169.254.169.254/")).reason();
        assertThat(metadataReason).contains("cloud-metadata").contains("never");
    }

    @Test
    void resolvedAddressesAreJudgedLikeLiterals() {
        assertThat(strict.checkAddress(new byte[] {10, 1, 2, 3}).allowed()).isFalse();
        assertThat(optedIn.checkAddress(new byte[] {10, 1, 2, 3}).allowed()).isTrue();
        assertThat(optedIn.checkAddress(new byte[] {(byte) 169, (byte) 254, (byte) 169, (byte) 254}).allowed()).isFalse();
        assertThat(strict.checkAddress(new byte[] {93, (byte) 184, (byte) 216, 34}).allowed()).isTrue();
    }

    // an IPv6-only cluster's DNS64 answers with the operator's NAT64 prefix (RFC 6052 section 2.2), which looks public
    @ParameterizedTest(name = "{0}: default {1}, opted in {2}")
    @CsvSource(delimiter = '|', textBlock = """
            http://[2a01:4f8:64::169.254.169.254]/   | refuse | refuse
            http://[2a01:4f8:64::a9fe:a9fe]/         | refuse | refuse
            http://[2a01:4f8:64::10.0.0.1]/          | refuse | allow
            http://[2a01:4f8:64::127.0.0.1]/         | refuse | allow
            http://[2a01:4f8:64::8.8.8.8]/           | allow  | allow
            http://[2a01:4f8:65::a9fe:a9fe]/         | allow  | allow
            http://[2a02:c0:64:a9fe:a9:fe00::]/      | refuse | refuse
            http://[2a02:c0:64:a00:0:100::]/         | refuse | allow
            http://[2a02:c0:64:808:8:800::]/         | allow  | allow
            http://[64:ff9b:1::a9fe:a9fe]/           | refuse | refuse
            http://[64:ff9b:1::a00:1]/               | refuse | allow
            http://[64:ff9b:1:1::a9fe:a9fe]/         | refuse | allow
            """)
    void anAddressUnderAnOperatorsNat64Prefix_isJudgedByTheIpv4AddressItLeadsTo(String url, String withoutOptIn, String withOptIn) {
        // a /96, a /48 (the IPv4 bits around the octet 64 to 71) and a local-use /96 inside 64:ff9b:1::/48
        Nat64Prefixes operators = new Nat64Prefixes(List.of(prefix("2a01:4f8:64::/96"), prefix("2a02:c0:64::/48"),
                prefix("64:ff9b:1::/96")));

        assertThat(verdict(new EgressRules(false, operators), url)).as("default: " + url).isEqualTo(withoutOptIn);
        assertThat(verdict(new EgressRules(true, operators), url)).as("opted in: " + url).isEqualTo(withOptIn);
    }

    @Test
    void cloudMetadataBehindAnOperatorsNat64Prefix_isRefused_evenWithPrivateBackendsAllowed_asLiteralAndResolved() {
        Nat64Prefixes operators = new Nat64Prefixes(List.of(prefix("2a01:4f8:64::/96")));
        EgressRules rules = new EgressRules(true, operators);
        byte[] resolved = rules.literalAddress("2a01:4f8:64::a9fe:a9fe").orElseThrow();

        assertThat(rules.checkAddress(resolved)).isInstanceOfSatisfying(EgressVerdict.Refused.class,
                refused -> assertThat(refused.reason()).contains("cloud-metadata").contains("never"));
        assertThat(rules.checkHost("[2a01:4f8:64::a9fe:a9fe]").allowed()).isFalse();
        assertThat(new EgressRules(true).checkAddress(resolved).allowed()).as("without the prefix: judged as the public IPv6 it looks")
                .isTrue();
    }

    @Test
    void aLocalUseNat64PrefixTheOperatorNames_hidesNoMetadata_whileUnnamedLocalUseStaysPrivate() {
        EgressRules named = new EgressRules(true, new Nat64Prefixes(List.of(prefix("64:ff9b:1:a9fe::/64"))));

        assertThat(named.checkHost("64:ff9b:1:a9fe:a9:fea9:fe00:0").allowed()).as("169.254.169.254 through the /64").isFalse();
        assertThat(named.checkHost("64:ff9b:1:a9fe:a:1:200:0").allowed()).as("10.0.1.2 through the /64").isTrue();
        assertThat(new EgressRules(true).checkHost("64:ff9b:1:a9fe:a9:fea9:fe00:0").allowed())
                .as("unnamed: private, so allowed when private backends are").isTrue();
        assertThat(new EgressRules(false).checkHost("64:ff9b:1:a9fe:a9:fea9:fe00:0").allowed()).isFalse();
    }

    @Test
    void aRefusalThroughANat64Prefix_namesThePrefixAndTheIpv4AddressItLeadsTo() {
        Nat64Prefixes operators = new Nat64Prefixes(List.of(prefix("2a01:4f8:64::/96"), prefix("2a02:c0:64::/48")));
        EgressRules optedIn = new EgressRules(true, operators);
        EgressRules strict = new EgressRules(false, operators);

        // an IPv6 URL an operator reads as public: the reason says where it leads, and why that is refused
        assertThat(reason(optedIn.checkUrl("http://[2a01:4f8:64::a9fe:a9fe]/"))).isEqualTo("the backend address is a cloud-metadata "
                + "address: the IPv6 address leads through the NAT64 prefix 2a01:4f8:64::/96 to the IPv4 address 169.254.169.254, "
                + "which is never allowed, not even with OMCP_ALLOW_PRIVATE_BACKENDS");
        assertThat(reason(strict.checkHost("2a02:c0:64:a00:0:100::"))).isEqualTo("the backend address is a private address "
                + "(RFC 1918, unique-local or shared CGNAT space): the IPv6 address leads through the NAT64 prefix 2a02:c0:64::/48 "
                + "to the IPv4 address 10.0.0.1; set OMCP_ALLOW_PRIVATE_BACKENDS=true to allow private and loopback backends");
        assertThat(reason(optedIn.checkAddress(optedIn.literalAddress("64:ff9b::169.254.169.254").orElseThrow())))
                .as("the well-known prefix too").contains("through the NAT64 prefix 64:ff9b::/96 to the IPv4 address 169.254.169.254");
        assertThat(reason(strict.checkAddress(new byte[] {(byte) 169, (byte) 254, (byte) 169, (byte) 254})))
                .as("an IPv4 address needs no such note").doesNotContain("NAT64");
        assertThat(reason(strict.checkHost("fd00:ec2::254"))).as("no NAT64 form: nothing to explain").doesNotContain("NAT64");
    }

    @Test
    void aLocalUseNat64AddressUnderNoListedPrefix_saysWhyItCountsAsPrivate() {
        assertThat(reason(strict.checkHost("64:ff9b:1::a9fe:a9fe"))).startsWith("the backend address is a private address "
                + "(RFC 1918, unique-local or shared CGNAT space): the IPv6 address lies in the local-use NAT64 block 64:ff9b:1::/48 "
                + "under none of OMCP_NAT64_PREFIXES (list the translators' prefix there), so where it leads is unknown; set "
                + "OMCP_ALLOW_PRIVATE_BACKENDS=true");
    }

    @Test
    void describe_namesEveryRuleThatChangesAVerdict_soTwoGatewaysWithDifferentRulesCanBeTold() {
        Nat64Prefixes one = new Nat64Prefixes(List.of(prefix("2a01:4f8:64::/96")));

        assertThat(new EgressRules(true, one).describe()).isEqualTo("privateBackendsAllowed=true nat64Prefixes=[2a01:4f8:64::/96]");
        assertThat(new EgressRules(false).describe()).isEqualTo("privateBackendsAllowed=false nat64Prefixes=[]");
        assertThat(new EgressRules(true, one).describe()).isEqualTo(new EgressRules(true, new Nat64Prefixes(
                List.of(prefix("2a01:4f8:64::/96")))).describe()).isNotEqualTo(new EgressRules(true).describe());
    }

    @Test
    void describe_isTheSameForTheSamePrefixesInAnotherOrder_soReorderingThemIsNoChangeOfRules() {
        Nat64Prefixes written = new Nat64Prefixes(List.of(prefix("2a02:c0:64::/48"), prefix("2a01:4f8:64::/96"),
                prefix("64:ff9b:1::/96")));
        Nat64Prefixes reordered = new Nat64Prefixes(List.of(prefix("64:ff9b:1::/96"), prefix("2a01:4f8:64::/96"),
                prefix("2a02:c0:64::/48")));

        assertThat(new EgressRules(false, written).describe()).isEqualTo(new EgressRules(false, reordered).describe())
                .isEqualTo("privateBackendsAllowed=false nat64Prefixes=[64:ff9b:1::/96, 2a01:4f8:64::/96, 2a02:c0:64::/48]");
    }

    @Test
    void aRefusalOfA6to4OrTeredoAddress_namesTheIpv4AddressItCarries_asOneThroughNat64Does() {
        EgressRules strict = new EgressRules(false);

        // 2002:a9fe:a9fe::1 and 2001:0:4136:e378:8000:63bf:5601:5601 look public; they lead to 169.254.169.254
        assertThat(reason(strict.checkHost("2002:a9fe:a9fe::1"))).isEqualTo("the backend address is a cloud-metadata address: "
                + "the IPv6 address is a 6to4 address (2002::/16) of the IPv4 address 169.254.169.254, which is never allowed, "
                + "not even with OMCP_ALLOW_PRIVATE_BACKENDS");
        assertThat(reason(strict.checkHost("2001:0:4136:e378:8000:63bf:5601:5601"))).isEqualTo("the backend address is a "
                + "cloud-metadata address: the IPv6 address is a Teredo address (2001::/32) whose client is the IPv4 address "
                + "169.254.169.254, which is never allowed, not even with OMCP_ALLOW_PRIVATE_BACKENDS");
        assertThat(reason(strict.checkHost("2002:a00:1::1"))).isEqualTo("the backend address is a private address (RFC 1918, "
                + "unique-local or shared CGNAT space): the IPv6 address is a 6to4 address (2002::/16) of the IPv4 address "
                + "10.0.0.1; set OMCP_ALLOW_PRIVATE_BACKENDS=true to allow private and loopback backends");
        assertThat(reason(strict.checkHost("::ffff:0:a9fe:a9fe"))).as("SIIT, written in hex").contains("the IPv6 address is "
                + "an IPv4-translated address (::ffff:0:0:0/96) of the IPv4 address 169.254.169.254");
        assertThat(reason(strict.checkHost("::ffff:a9fe:a9fe"))).contains("the IPv6 address is an IPv4-mapped address "
                + "(::ffff:0:0/96) of the IPv4 address 169.254.169.254");
        assertThat(reason(strict.checkHost("::a00:1"))).contains("the IPv6 address is an IPv4-compatible address (::/96) "
                + "of the IPv4 address 10.0.0.1");
    }

    // url, verdict without opt-in, verdict with OMCP_ALLOW_PRIVATE_BACKENDS=true
    @ParameterizedTest(name = "{0}: default {1}, opted in {2}")
    @CsvSource(delimiter = '|', textBlock = """
            http://[::1:0:0:1]/                        | refuse | refuse
            http://[::2:0:0:1]/                        | refuse | refuse
            http://[0:0:0:1::1]/                       | refuse | refuse
            http://[1::1]/                             | refuse | refuse
            http://[ff::1]/                            | refuse | refuse
            http://[64:ff9b::1:a9fe:a9fe]/             | refuse | refuse
            http://[64:ff9b:2::1]/                     | refuse | refuse
            http://[100:0:0:1::1]/                     | refuse | refuse
            http://[200::1]/                           | refuse | refuse
            http://[1000::1]/                          | refuse | refuse
            http://[4000::1]/                          | refuse | refuse
            http://[5f00::1]/                          | refuse | refuse
            http://[e000::1]/                          | refuse | refuse
            http://[fe00::1]/                          | refuse | refuse
            http://[3fff::1]/                          | refuse | refuse
            http://[2001:1::1]/                        | refuse | refuse
            http://[2001:10::1]/                       | refuse | refuse
            http://[2001:1ff::1]/                      | refuse | refuse
            http://[2001:2::1]/                        | refuse | allow
            http://[2001:200::1]/                      | allow  | allow
            http://[2620:4f:8000::1]/                  | allow  | allow
            http://[3ffe::1]/                          | allow  | allow
            http://[fec0::1]/                          | refuse | allow
            """)
    void ipv6AddressesOutsideGlobalUnicast_thatCarryNoIpv4Address_areRefused(String url, String withoutOptIn, String withOptIn) {
        // IANA: only 2000::/3 is global unicast; ::/8 holds no address but ::, ::1 and the IPv4 forms the gateway reads
        assertThat(verdict(strict, url)).as("default: " + url).isEqualTo(withoutOptIn);
        assertThat(verdict(optedIn, url)).as("opted in: " + url).isEqualTo(withOptIn);
    }

    @Test
    void aReservedIpv6Address_isRefused_namingItsBlock() {
        assertThat(reason(optedIn.checkHost("::1:0:0:1"))).isEqualTo("the backend address is a reserved or documentation address "
                + "(::/8, reserved by the IETF; of it only ::, ::1 and the forms that carry an IPv4 address (::a.b.c.d, "
                + "::ffff:a.b.c.d, ::ffff:0:a.b.c.d, 64:ff9b::/96, 64:ff9b:1::/48) are used), which is never allowed");
        assertThat(reason(optedIn.checkHost("fe00::1"))).isEqualTo("the backend address is a reserved or documentation address "
                + "(fe00::/9, reserved by the IETF), which is never allowed");
        assertThat(reason(strict.checkHost("3fff::1"))).contains("(3fff::/20, documentation)");
        assertThat(reason(strict.checkHost("2001:2::1"))).contains("(2001:2::/48, benchmarking)", "OMCP_ALLOW_PRIVATE_BACKENDS=true");
    }

    private static String reason(EgressVerdict verdict) {
        assertThat(verdict).isInstanceOf(EgressVerdict.Refused.class);
        return ((EgressVerdict.Refused) verdict).reason();
    }

    private static Nat64Prefix prefix(String cidr) {
        int slash = cidr.indexOf('/');
        IpAddress address = IpAddress.parseOrError(cidr.substring(0, slash));
        return new Nat64Prefix(address.hi(), address.lo(), Integer.parseInt(cidr.substring(slash + 1)));
    }

    @Test
    void literalFormsAreReadLikeInetAton() {
        assertThat(strict.literalAddress("2130706433")).hasValueSatisfying(b -> assertThat(b).containsExactly(127, 0, 0, 1));
        assertThat(strict.literalAddress("0x7f.1")).hasValueSatisfying(b -> assertThat(b).containsExactly(127, 0, 0, 1));
        assertThat(strict.literalAddress("10.1")).hasValueSatisfying(b -> assertThat(b).containsExactly(10, 0, 0, 1));
        assertThat(strict.literalAddress("prometheus")).isEmpty();
        assertThat(strict.literalAddress("[::1]")).hasValueSatisfying(b -> assertThat(b).hasSize(16));
    }
}
