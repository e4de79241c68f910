package dev.omcp.core.egress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Ipv6BlocksTest {
    @Test
    void everyAddressLiesInABlock_soNoneIsJudgedWithoutARule() {
        // the blocks are no finer than /64; 2001:2::/48 and 100::/64 are the finest, the rest is /32 or shorter
        for (long first16 = 0; first16 <= 0xffff; first16++) {
            for (long second16 : new long[] {0, 1, 2, 0xdb8, 0x1ff, 0x200, 0xffff}) {
                long hi = first16 << 48 | second16 << 32;
                assertThat(Ipv6Blocks.of(hi)).as("%x:%x::", first16, second16).isNotNull();
                assertThat(Ipv6Blocks.of(hi | 1)).isNotNull();
            }
        }
    }

    @Test
    void onlyGlobalUnicastIsPublic() {
        for (long first16 = 0; first16 <= 0xffff; first16++) {
            boolean globalUnicast = (first16 & 0xe000) == 0x2000;
            long hi = first16 << 48 | 0x0db9L << 32;
            if (!globalUnicast) {
                assertThat(Ipv6Blocks.of(hi).kind()).as("%x::", first16).isNotEqualTo(AddressClass.PUBLIC);
            }
        }
        assertThat(Ipv6Blocks.of(0x2a01_04f8_0000_0000L).kind()).isEqualTo(AddressClass.PUBLIC);
    }
}
