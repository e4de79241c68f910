package dev.omcp.core.embeddedipv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.ipenrich.IpAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** RFC 6052 section 2.2: the network-specific prefixes an operator may configure, and the ones that cannot be read. */
class Nat64PrefixTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"2001:db8::/32", "2001:db8:100::/40", "2001:db8:122::/48", "2001:db8:122:300::/56",
        "2001:db8:122:344::/64", "2001:db8:122:344::/96", "64:ff9b::/96", "64:ff9b:1::/48", "64:ff9b:1:a00::/56",
        "64:ff9b:1::/96", "fd00:64::/96"})
    void theSixLengths_areAccepted_andWrittenBackInRfc5952Form(String cidr) {
        assertThat(prefix(cidr)).hasToString(cidr);
    }

    @Test
    void theWellKnownPrefix_isOne() {
        assertThat(prefix("64:ff9b::/96")).isEqualTo(Nat64Prefix.WELL_KNOWN);
        assertThat(Nat64Prefix.LENGTHS).containsExactly(32, 40, 48, 56, 64, 96);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {0, 16, 33, 44, 63, 80, 95, 97, 128})
    void anotherLength_isRefused_namingTheAllowedOnes(int length) {
        assertThatThrownBy(() -> new Nat64Prefix(0x2001_0db8_0000_0000L, 0, length)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/32, /40, /48, /56, /64 or /96").hasMessageContaining("RFC 6052").hasMessageContaining("/" + length);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"2001:db8::1/96, 2001:db8::/96", "2001:db8:100::/32, 2001:db8::/32", "2001:db8:122:344::/48, 2001:db8:122::/48"})
    void aBitBeyondTheLength_isRefused_showingThePrefixMeant(String cidr, String meant) {
        assertThatThrownBy(() -> prefix(cidr)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("beyond its length").hasMessageContaining(meant);
    }

    @Test
    void bits64To71OfASlash96_mustBeZero() {
        assertThatThrownBy(() -> prefix("2001:db8:0:0:100::/96")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bits 64 to 71");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ::/96             | overlaps the IPv4-compatible form
            ::ffff:0:0/96     | overlaps the IPv4-mapped form
            ::ffff:0:0:0/96   | bits 64 to 71
            ::/32             | overlaps the IPv4-compatible form
            64:ff9b::/32      | overlaps the local-use NAT64 block 64:ff9b:1::/48
            64:ff9b::/40      | inside it that the translator uses
            64:ff9b::/64      | overlaps the well-known NAT64 prefix
            2002:a00::/32     | overlaps the 6to4 block
            2001::/32         | overlaps the Teredo block
            2001:0:4136::/48  | overlaps the Teredo block
            fe80::/32         | overlaps the link-local block fe80::/10
            febf:1::/48       | overlaps the link-local block fe80::/10
            ff02::/32         | overlaps the multicast block ff00::/8
            """)
    void aPrefixOverAFormReadByItsOwnRule_isRefused(String cidr, String reason) {
        assertThatThrownBy(() -> prefix(cidr)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(reason);
    }

    @Test
    void overlappingPrefixes_andMoreThanSixteen_areRefused() {
        assertThatThrownBy(() -> new Nat64Prefixes(List.of(prefix("2001:db8:100::/40"), prefix("2001:db8:100::/96"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2001:db8:100::/40 and 2001:db8:100::/96 overlap");
        assertThatThrownBy(() -> new Nat64Prefixes(List.of(prefix("2001:db8:1::/48"), prefix("2001:db8:1::/48"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
        List<Nat64Prefix> seventeen = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            seventeen.add(new Nat64Prefix(0x2001_0db8_0000_0000L | ((long) i << 16), 0, 48));
        }
        assertThat(new Nat64Prefixes(seventeen.subList(0, Nat64Prefixes.MAX_PREFIXES)).prefixes()).hasSize(16);
        assertThatThrownBy(() -> new Nat64Prefixes(seventeen)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 16");
        assertThat(Nat64Prefixes.none().isEmpty()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            2001:0DB8:0064:0000:0000:0000:0000:0000/96 | 2001:db8:64::/96
            2001:db8:100::/40                          | 2001:db8:100::/40
            2001:db8:0:0:0:1::/96                      | 2001:db8::1:0:0/96
            2001:db8:0:1::/64                          | 2001:db8:0:1::/64
            64:ff9b:1:0:0:0:0:0/48                     | 64:ff9b:1::/48
            """)
    void aPrefixIsWrittenInRfc5952Form(String cidr, String written) {
        // the longest zero run compressed (the first of equal ones), a single zero group kept, lower case
        assertThat(prefix(cidr)).hasToString(written);
    }

    /** A prefix from its text, read by a parser of the test's own choosing (the core reads no prefix text). */
    static Nat64Prefix prefix(String cidr) {
        int slash = cidr.indexOf('/');
        IpAddress address = IpAddress.parseOrError(cidr.substring(0, slash));
        // IpAddress reads ::ffff:a.b.c.d as the IPv4 address it maps
        long lo = address.v4() ? 0xFFFF_0000_0000L | address.lo() : address.lo();
        return new Nat64Prefix(address.hi(), lo, Integer.parseInt(cidr.substring(slash + 1)));
    }

    static Nat64Prefixes prefixes(String... cidrs) {
        return new Nat64Prefixes(List.of(cidrs).stream().map(Nat64PrefixTest::prefix).toList());
    }
}
