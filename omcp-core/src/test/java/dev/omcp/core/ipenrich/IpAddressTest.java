package dev.omcp.core.ipenrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class IpAddressTest {
    @ParameterizedTest
    @CsvSource({
        "192.0.2.1, 192.0.2.1",
        "2001:DB8::1, 2001:db8::1",
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "[2001:db8::1], 2001:db8::1",
        "fe80::1%eth0, fe80::1",
        "::ffff:198.51.100.7, 198.51.100.7",
        "::1, ::1",
        "::, ::",
        "1:0:0:2:0:0:0:3, 1:0:0:2::3",
        "64:ff9b::192.0.2.33, 64:ff9b::c000:221",
        "::8.8.8.8, ::808:808",
        // without brackets the last group is no port: this is an address
        "2001:db8::1:443, 2001:db8::1:443",
        // RFC 5952: the first of equal zero runs, never a single zero group, lower case
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
        "1:0:0:0:0:0:0:0, 1::",
        "ABCD:EF01:0:0:0:0:0:0, abcd:ef01::",
        // SIIT keeps its IPv6 family and is written in hex
        "::ffff:0:192.0.2.1, ::ffff:0:c000:201",
    })
    void parsesAndPrintsCanonically(String text, String canonical) {
        assertThat(IpAddress.parseOrError(text).toString()).isEqualTo(canonical);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "256.1.1.1 | above 255",
        "1.2.3 | four dot-separated numbers",
        "1.2.3.4.5 | four dot-separated numbers",
        "example.com | host names are not resolved",
        "hello | expected an IPv4 address such as 203.0.113.7 or an IPv6 address such as 2001:db8::1",
        "1::2::3 | only once",
        "1:2:3:4:5:6:7 | eight groups",
        "12345::1 | 1 to 4 hex digits",
        "g::1 | not a hex group",
        "1.2.3.4::1 | must come last",
        "203.0.113.007 | has a leading zero, which some tools read as octal; write it without (7)",
        "01.2.3.4 | leading zero",
        // digits of other scripts are not hex digits: the address looked up must be the one that was written
        "\uFF12\uFF10\uFF10\uFF11:db8::1 | not a hex group",
        "\u0662\u0660\u0660\u0661:db8::1 | not a hex group",
        "2001:db8::\u0661 | not a hex group",
        // a zone names an IPv6 link: on an IPv4 address it was dropped and the address answered as if the input were valid
        "203.0.113.7%eth0 | and an interface name) belongs only to an IPv6 address such as fe80::1%eth0, never to an IPv4 one; ask for 203.0.113.7 without it",
        "::ffff:203.0.113.7%eth0 | never to an IPv4 one; ask for 203.0.113.7 without it",
        "fe80::1% | starts a zone, which is missing; give the address without",
        // how access logs write a client: the reason names the address to ask for, not a rule about embedded IPv4
        "203.0.113.7:51234 | not an IP address: it ends with a port (:51234); ask for 203.0.113.7 alone",
        "[2001:DB8::1]:443 | it ends with a port (:443); ask for 2001:db8::1 alone",
        "[::ffff:203.0.113.7]:443 | ask for 203.0.113.7 alone",
        "203.0.113.007:80 | has a leading zero",
    })
    void refusesWhatIsNotAnAddressAndSaysWhy(String text, String reason) {
        assertThatThrownBy(() -> IpAddress.parseOrError(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(reason);
    }

    @Test
    void refusesEmptyAndOverlongInput() {
        assertThatThrownBy(() -> IpAddress.parseOrError("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> IpAddress.parseOrError(" \t ")).hasMessage("empty address");
        assertThatThrownBy(() -> IpAddress.parseOrError("1".repeat(100))).hasMessageContaining("longer than 64");
    }

    @Test
    void cidr_refusesHostBitsAndBadPrefixesAndKnowsItsMembers() {
        assertThatThrownBy(() -> Cidr.parse("10.1.2.3/8")).hasMessageContaining("host bits are set").hasMessageContaining("10.0.0.0/8");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33")).hasMessageContaining("longer than the 32 bits");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/x")).hasMessageContaining("not a prefix length");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/\u0668")).as("an Arabic-Indic eight").hasMessageContaining("not a prefix length");
        assertThat(Cidr.parse("203.0.113.7").prefix()).isEqualTo(32);
        Cidr net = Cidr.parse("2001:db8:8000::/33");
        assertThat(net.contains(IpAddress.parseOrError("2001:db8:ffff::1"))).isTrue();
        assertThat(net.contains(IpAddress.parseOrError("2001:db8:7fff::1"))).isFalse();
        assertThat(net.contains(IpAddress.parseOrError("10.0.0.1"))).isFalse();
        assertThat(Cidr.parse("0.0.0.0/0").contains(IpAddress.parseOrError("255.255.255.255"))).isTrue();
        assertThat(Cidr.parse("::/0").last().toString()).isEqualTo("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    }

    @Test
    void scope_classifiesSpecialPurposeAddresses() {
        assertThat(IpScope.of(IpAddress.parseOrError("10.2.3.4"))).isEqualTo(IpScope.PRIVATE);
        assertThat(IpScope.of(IpAddress.parseOrError("172.31.255.1"))).isEqualTo(IpScope.PRIVATE);
        assertThat(IpScope.of(IpAddress.parseOrError("100.64.1.1"))).isEqualTo(IpScope.SHARED);
        assertThat(IpScope.of(IpAddress.parseOrError("127.0.0.1"))).isEqualTo(IpScope.LOOPBACK);
        assertThat(IpScope.of(IpAddress.parseOrError("::1"))).isEqualTo(IpScope.LOOPBACK);
        assertThat(IpScope.of(IpAddress.parseOrError("fd12::1"))).isEqualTo(IpScope.PRIVATE);
        assertThat(IpScope.of(IpAddress.parseOrError("fe80::1"))).isEqualTo(IpScope.LINK_LOCAL);
        assertThat(IpScope.of(IpAddress.parseOrError("2001:db8::1"))).isEqualTo(IpScope.DOCUMENTATION);
        assertThat(IpScope.of(IpAddress.parseOrError("8.8.8.8"))).isEqualTo(IpScope.PUBLIC);
        assertThat(IpScope.of(IpAddress.parseOrError("2a00:1450::1"))).isEqualTo(IpScope.PUBLIC);
        assertThat(IpScope.of(IpAddress.parseOrError("240.0.0.1"))).isEqualTo(IpScope.RESERVED);
    }

    /**
     * IANA special-purpose registries: a block that is not globally reachable is not public, so it is
     * never sent to an RDAP service; the few globally reachable blocks inside such a block stay public.
     */
    @ParameterizedTest
    @CsvSource({
        "192.0.0.8, reserved",
        "192.0.0.170, reserved",
        "192.0.0.9, public",
        "192.0.0.10, public",
        "192.88.99.1, reserved",
        "3fff::1, documentation",
        "3fff:fff:ffff::1, documentation",
        "3fff:1000::1, public",
        "2001:2::1, reserved",
        "2001:10::1, reserved",
        // RFC 4380: a Teredo address is classed as its client's public IPv4 address, the last 32 bits inverted
        "2001:0:4136:e378:8000:63bf:3fff:fdd2, documentation",
        "2001:0:4136:e378:8000:63bf:f7f7:f7f7, public",
        "2001:0:4136:e378::f5ff:fffe, private",
        "2001:1ff:ffff::1, reserved",
        "2001:200::1, public",
        "2001:3::1, public",
        "2001:4:112::1, public",
        "2001:20::1, public",
        // RFC 3056: a 6to4 address is classed as the IPv4 address of its site, bits 16 to 47
        "2002:a00:1::1, private",
        "2002:c0a8:101::1, private",
        "2002:7f00:1::1, loopback",
        "2002:c000:221::1, documentation",
        "2002:808:808::1, public",
        // RFC 4291 section 2.5.5.1: the deprecated IPv4-compatible form is not classed as its IPv4 address
        "::808:808, reserved",
        // RFC 5214: an ISATAP interface identifier is no part of who owns the address; its prefix is
        "2a00:1450::5efe:c0a8:101, public",
        "5f00::1, reserved",
        // RFC 6052: the well-known NAT64 prefix carries an IPv4 address in its last 32 bits, classed as that address
        "64:ff9b::a00:1, private",
        "64:ff9b::808:808, public",
        "64:ff9b::c000:221, documentation",
        "64:ff9b::7f00:1, loopback",
        "64:ff9b:0:0:1::808:808, reserved",
        // RFC 2765 (SIIT): an IPv4-translated address is classed as the IPv4 address in its last 32 bits
        "::ffff:0:a00:1, private",
        "::ffff:0:808:808, public",
        "::ffff:0:7f00:1, loopback",
        // RFC 8215: the local-use prefix's embedding depends on the operator's prefix length
        "64:ff9b:1::808:808, reserved",
    })
    void scope_followsTheSpecialPurposeRegistries(String address, String scope) {
        assertThat(IpScope.of(IpAddress.parseOrError(address)).wireName()).isEqualTo(scope);
    }

    @org.junit.jupiter.api.Test
    void anIpv6AddressBuiltWithTheMappedBits_isWrittenInHex() {
        // the parser reads ::ffff:a.b.c.d as IPv4; a value built as IPv6 keeps its IPv6 text
        assertThat(new IpAddress(false, 0, 0xFFFF_C000_0201L).toString()).isEqualTo("::ffff:c000:201");
    }
}
