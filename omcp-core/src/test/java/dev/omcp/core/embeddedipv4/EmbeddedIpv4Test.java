package dev.omcp.core.embeddedipv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.embeddedipv4.EmbeddedIpv4.Form;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class EmbeddedIpv4Test {
    // the address as 16 hex bytes (to stay clear of any text parser), the form, the IPv4 address it carries ("-": none)
    @ParameterizedTest(name = "{0}: {1} {2}")
    @CsvSource(delimiter = '|', textBlock = """
            00000000000000000000ffff08080808 | IPV4_MAPPED      | 8.8.8.8
            0000000000000000ffff00000a000001 | IPV4_TRANSLATED  | 10.0.0.1
            000000000000000000000000c6336407 | IPV4_COMPATIBLE  | 198.51.100.7
            00000000000000000000000000000002 | IPV4_COMPATIBLE  | 0.0.0.2
            0064ff9b0000000000000000a9fea9fe | NAT64            | 169.254.169.254
            0064ff9b000100000000000008080808 | NAT64_LOCAL_USE  | -
            0064ff9b0001ffffffffffffffffffff | NAT64_LOCAL_USE  | -
            2002c0a8010100000000000000000001 | SIX_TO_FOUR      | 192.168.1.1
            200100004136e378800063bf3ffffdd2 | TEREDO           | 192.0.2.45
            """)
    void decodesEveryForm(String hex, Form form, String ipv4) {
        EmbeddedIpv4 decoded = EmbeddedIpv4.decode(bytes(hex)).orElseThrow();

        assertThat(decoded.form()).isEqualTo(form);
        assertThat(decoded.ipv4()).isEqualTo(ipv4.equals("-") ? OptionalLong.empty() : OptionalLong.of(bits(ipv4)));
        assertThat(decoded.teredo().isPresent()).isEqualTo(form == Form.TEREDO);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "00000000000000000000000000000000", // ::, the unspecified address
        "00000000000000000000000000000001", // ::1, the loopback address
        "00000000000000000001ffff08080808", // ::1:ffff:808:808, next to the mapped prefix
        "0000000000000000fffe00000a000001", // next to the SIIT prefix
        "0064ff9b000000000000000108080808", // 64:ff9b::1:808:808, in 64:ff9b::/64 but outside the well-known /96
        "0064ff9b000200000000000000000001", // next to the local-use /48
        "2001000100000000000000000000002a", // 2001:1::/32, beside Teredo
        "20010db8000000000000000000000001", // documentation, 2001:db8::/32
        "2003000000000000000000000000002a", // beside 6to4
        "fe800000000000000000000000000001",
    })
    void decodesNothingOutsideTheForms(String hex) {
        assertThat(EmbeddedIpv4.decode(bytes(hex))).isEmpty();
    }

    @Test
    void aTeredoAddress_givesItsServer_andItsClientsPortAndAddressUninverted() {
        // RFC 4380 section 4's example: server 65.54.227.120, client 192.0.2.45 port 40000, cone bit set
        EmbeddedIpv4 teredo = EmbeddedIpv4.decode(bytes("200100004136e378800063bf3ffffdd2")).orElseThrow();

        assertThat(teredo.ipv4()).isEqualTo(OptionalLong.of(bits("192.0.2.45")));
        assertThat(teredo.teredo()).contains(new EmbeddedIpv4.Teredo(bits("65.54.227.120"), 40000));
        assertThat(EmbeddedIpv4.decode(bytes("20010000000000000000ffffffffffff")).orElseThrow().teredo().orElseThrow().clientPort())
                .as("stored 0xffff is port 0").isZero();
        assertThat(EmbeddedIpv4.decode(bytes("20010000000000000000ffffffffffff")).orElseThrow().ipv4())
                .as("stored all ones is 0.0.0.0").isEqualTo(OptionalLong.of(0));
        assertThat(EmbeddedIpv4.decode(bytes("20010000000000000000000000000000")).orElseThrow().teredo().orElseThrow().clientPort())
                .isEqualTo(65535);
    }

    @Test
    void theBytesAndTheTwoHalvesReadTheSame_andTheIpv4BytesComeInNetworkOrder() {
        Optional<EmbeddedIpv4> fromBytes = EmbeddedIpv4.decode(bytes("2002c0a8010100000000000000000001"));

        assertThat(fromBytes).isEqualTo(EmbeddedIpv4.decode(0x2002_c0a8_0101_0000L, 1L));
        assertThat(fromBytes.orElseThrow().ipv4Bytes().orElseThrow()).containsExactly(0xc0, 0xa8, 0x01, 0x01);
        assertThat(EmbeddedIpv4.decode(bytes("0064ff9b000100000000000008080808")).orElseThrow().ipv4Bytes()).isEmpty();
    }

    // RFC 6052 section 2.4: 192.0.2.33 under a prefix of each length, as that section writes it
    @ParameterizedTest(name = "{0} under {1}")
    @CsvSource(delimiter = '|', textBlock = """
            20010db8c00002210000000000000000 | 2001:db8::/32
            20010db801c000020021000000000000 | 2001:db8:100::/40
            20010db80122c0000002210000000000 | 2001:db8:122::/48
            20010db8012203c00000022100000000 | 2001:db8:122:300::/56
            20010db80122034400c0000221000000 | 2001:db8:122:344::/64
            20010db80122034400000000c0000221 | 2001:db8:122:344::/96
            """)
    void anAddressUnderAnOperatorsPrefix_carriesTheIpv4AddressRfc6052PlacesForItsLength(String hex, String prefix) {
        Nat64Prefixes configured = Nat64PrefixTest.prefixes(prefix);

        EmbeddedIpv4 decoded = EmbeddedIpv4.decode(bytes(hex), configured).orElseThrow();

        assertThat(decoded.form()).isEqualTo(Form.NAT64);
        assertThat(decoded.ipv4()).isEqualTo(OptionalLong.of(bits("192.0.2.33")));
        assertThat(decoded.nat64Prefix()).contains(Nat64PrefixTest.prefix(prefix));
        assertThat(EmbeddedIpv4.decode(bytes(hex))).as("without the prefix configured").isEmpty();
    }

    @Test
    void theWellKnownPrefix_isNamedToo_andReadAlikeWithOrWithoutOperatorPrefixes() {
        Optional<EmbeddedIpv4> alone = EmbeddedIpv4.decode(bytes("0064ff9b0000000000000000c0000221"));

        assertThat(alone.orElseThrow().nat64Prefix()).contains(Nat64Prefix.WELL_KNOWN);
        assertThat(EmbeddedIpv4.decode(bytes("0064ff9b0000000000000000c0000221"), Nat64PrefixTest.prefixes("2001:db8::/32")))
                .isEqualTo(alone);
    }

    @Test
    void theReservedOctetAndTheSuffix_areNotLookedAt_soNoSpellingEscapesTheIpv4Address() {
        // a translator that ignores them still reaches 169.254.169.254: the guard must judge the address by it
        Nat64Prefixes configured = Nat64PrefixTest.prefixes("2001:db8:100::/40");

        EmbeddedIpv4 decoded = EmbeddedIpv4.decode(bytes("20010db801a9fea9fffe000000000001"), configured).orElseThrow();

        assertThat(decoded.ipv4()).isEqualTo(OptionalLong.of(bits("169.254.169.254")));
    }

    @Test
    void aLocalUsePrefixTheOperatorNames_isRead_whileTheRestOfTheBlockStaysUnread() {
        Nat64Prefixes configured = Nat64PrefixTest.prefixes("64:ff9b:1:a900::/56");

        EmbeddedIpv4 named = EmbeddedIpv4.decode(bytes("0064ff9b0001a9a900fea9fe00000000"), configured).orElseThrow();
        EmbeddedIpv4 other = EmbeddedIpv4.decode(bytes("0064ff9b0001aaa900fea9fe00000000"), configured).orElseThrow();

        assertThat(named.form()).isEqualTo(Form.NAT64);
        assertThat(named.ipv4()).isEqualTo(OptionalLong.of(bits("169.254.169.254")));
        assertThat(other.form()).isEqualTo(Form.NAT64_LOCAL_USE);
        assertThat(other.ipv4()).isEmpty();
    }

    @Test
    void anAddressOfAnotherLength_isRefused() {
        assertThatThrownBy(() -> EmbeddedIpv4.decode(new byte[4])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16 bytes");
    }

    static byte[] bytes(String hex) {
        assertThat(hex).as("32 hex digits").hasSize(32);
        byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static long bits(String dotted) {
        long v = 0;
        for (String part : dotted.split("\\.")) {
            v = (v << 8) | Integer.parseInt(part);
        }
        return v;
    }
}
