package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientNetworkTest {

    @Test
    void anIpv4AddressIsItsOwnKey() {
        assertThat(ClientNetwork.of("192.0.2.1")).isEqualTo("192.0.2.1");
        assertThat(ClientNetwork.of("192.0.2.1")).isNotEqualTo(ClientNetwork.of("192.0.2.2"));
    }

    @Test
    void anIpv6AddressIsKeyedByItsSlash64_inEveryNotation() {
        String key = ClientNetwork.of("2001:db8:1:2::1");

        assertThat(key).isEqualTo("2001:db8:1:2::/64");
        assertThat(ClientNetwork.of("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).isEqualTo(key);
        assertThat(ClientNetwork.of("[2001:db8:1:2::abcd]")).isEqualTo(key);
        assertThat(ClientNetwork.of("2001:db8:1:3::1")).isEqualTo("2001:db8:1:3::/64");
        assertThat(ClientNetwork.of("0:0:0:0:0:0:0:1")).isEqualTo(ClientNetwork.of("::1")).isEqualTo("0:0:0:0::/64");
    }

    @Test
    void aLinkLocalZone_namesTheGatewaysInterface_notTheClient() {
        assertThat(ClientNetwork.of("fe80::1%eth0")).isEqualTo(ClientNetwork.of("fe80::2")).isEqualTo("fe80:0:0:0::/64");
    }

    @Test
    void anIpv4MappedIpv6Address_isKeyedByItsIpv4Address() {
        assertThat(ClientNetwork.of("::ffff:192.0.2.1")).isEqualTo("192.0.2.1");
        assertThat(ClientNetwork.of("[::ffff:c000:201]")).isEqualTo("192.0.2.1");
    }

    @Test
    void textThatIsNoIpAddress_isCountedAsItIs_withoutALookup() {
        assertThat(ClientNetwork.of("999.1.1.1")).isEqualTo("999.1.1.1");
        assertThat(ClientNetwork.of("localhost")).isEqualTo("localhost");
        assertThat(ClientNetwork.of("1:2:3:4:5:6:7:8:9")).isEqualTo("1:2:3:4:5:6:7:8:9");
        assertThat(ClientNetwork.of("unknown")).isEqualTo("unknown");
    }
}
