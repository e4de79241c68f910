package dev.omcp.ports.iptext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class Ipv6TextTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            0:0:0:0:0:0:0:0                         | ::
            0:0:0:0:0:0:0:1                         | ::1
            1:0:0:0:0:0:0:0                         | 1::
            2001:0db8:0000:0000:0000:0000:0000:0001 | 2001:db8::1
            2001:db8:0:0:1:0:0:1                    | 2001:db8::1:0:0:1
            2001:db8:0:1:0:0:0:1                    | 2001:db8:0:1::1
            2001:db8:0:1:1:1:1:1                    | 2001:db8:0:1:1:1:1:1
            1:0:0:2:0:0:0:3                         | 1:0:0:2::3
            ABCD:EF01:0:0:0:0:0:0                   | abcd:ef01::
            0:0:0:0:0:ffff:c000:201                 | ::ffff:c000:201
            0:0:0:0:ffff:0:c000:201                 | ::ffff:0:c000:201
            64:ff9b:0:0:0:0:a9fe:a9fe               | 64:ff9b::a9fe:a9fe
            """)
    void writesTheRfc5952Form(String full, String written) throws Exception {
        // the longest zero run, the first of equal runs, never a single zero group, lower case, mapped forms in hex
        byte[] bytes = InetAddress.getByName(full).getAddress();
        byte[] sixteen = bytes.length == 16 ? bytes : mapped(bytes);

        assertThat(Ipv6Text.of(sixteen)).isEqualTo(written);
    }

    @Test
    void readsTheTwoHalvesAsTheBytesDo() {
        assertThat(Ipv6Text.of(0x2001_0db8_0000_0000L, 0x0000_0000_0000_0001L)).isEqualTo("2001:db8::1");
        assertThat(Ipv6Text.of(-1L, -1L)).isEqualTo("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
        assertThatThrownBy(() -> Ipv6Text.of(new byte[4])).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 bytes");
    }

    /** The JDK hands back ::ffff:a.b.c.d as its four IPv4 bytes. */
    private static byte[] mapped(byte[] ipv4) {
        byte[] out = new byte[16];
        out[10] = (byte) 0xff;
        out[11] = (byte) 0xff;
        System.arraycopy(ipv4, 0, out, 12, 4);
        return out;
    }
}
