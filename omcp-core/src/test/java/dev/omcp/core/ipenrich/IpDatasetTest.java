package dev.omcp.core.ipenrich;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IpDatasetTest {
    private static IpDataset load(String csv) throws IOException {
        DatasetLoad load = new IpDatasetParser().parse(new StringReader(csv));
        assertThat(load).isInstanceOf(DatasetLoad.Loaded.class);
        return ((DatasetLoad.Loaded) load).dataset();
    }

    private static DatasetLoad.Loaded loaded(String csv) throws IOException {
        return (DatasetLoad.Loaded) new IpDatasetParser().parse(new StringReader(csv));
    }

    private static String rejected(String csv) throws IOException {
        return ((DatasetLoad.Rejected) new IpDatasetParser().parse(new StringReader(csv))).reason();
    }

    @Test
    void quotedFieldsWithCommasQuotesAndNewlines_CrlfAndABom_areRead() throws IOException {
        IpDataset d = load("\uFEFFNetwork,asn,org,country\r\n"
                + "203.0.113.0/24,64500,\"Example, Inc.\",NL\r\n"
                + "198.51.100.0/24,64501,\"The \"\"Quoted\"\" Org\",DE\r\n"
                + "2001:db8::/32,64502,\"Multi\nLine\",\r\n");
        assertThat(d.columns()).containsExactly("asn", "org", "country");
        assertThat(d.size()).isEqualTo(3);
        assertThat(d.lookup(IpAddress.parseOrError("203.0.113.9")).orElseThrow().attributes())
                .isEqualTo(Map.of("asn", "64500", "org", "Example, Inc.", "country", "NL"));
        assertThat(d.lookup(IpAddress.parseOrError("198.51.100.1")).orElseThrow().attributes()).containsEntry("org", "The \"Quoted\" Org");
        IpDataset.Match v6 = d.lookup(IpAddress.parseOrError("2001:db8:1::5")).orElseThrow();
        assertThat(v6.attributes()).containsEntry("org", "Multi\nLine").doesNotContainKey("country");
        assertThat(v6.network().toString()).isEqualTo("2001:db8::/32");
    }

    @Test
    void aBomBeforeAQuotedHeader_isDropped_asSpreadsheetsAndPowerShellWriteIt() throws IOException {
        IpDataset d = load("\uFEFF\"network\",\"org\"\r\n\"203.0.113.0/24\",\"Example\"\r\n");
        assertThat(d.columns()).containsExactly("org");
        assertThat(name(d, "203.0.113.5", "org")).isEqualTo("Example");
    }

    @Test
    void ipv6HostRows_areFoundAs128s_insideTheirNetwork() throws IOException {
        IpDataset d = load("network,name\n2001:db8::/32,net\n2001:db8::1,host\n2001:db8::2/128,other\n::ffff:192.0.2.1/128,mapped\n");
        IpDataset.Match host = d.lookup(IpAddress.parseOrError("2001:db8::1")).orElseThrow();
        assertThat(host.network().toString()).isEqualTo("2001:db8::1/128");
        assertThat(host.attributes()).containsEntry("name", "host");
        assertThat(name(d, "2001:db8::2")).isEqualTo("other");
        assertThat(name(d, "2001:db8::3")).isEqualTo("net");
        assertThat(d.lookup(IpAddress.parseOrError("192.0.2.1")).orElseThrow().network().toString()).isEqualTo("192.0.2.1/32");
    }

    @Test
    void nestedPrefixes_answerTheLongestMatch() throws IOException {
        IpDataset d = load("cidr,name\n10.0.0.0/8,a\n10.1.0.0/16,b\n10.1.2.0/24,c\n10.1.2.128/25,d\n10.2.0.0/16,e\n0.0.0.0/0,default\n"
                + "::/0,v6default\n2001:db8::/32,v6a\n2001:db8:1::/48,v6b\n");
        assertThat(name(d, "10.1.2.200")).isEqualTo("d");
        assertThat(name(d, "10.1.2.5")).isEqualTo("c");
        assertThat(name(d, "10.1.3.5")).isEqualTo("b");
        assertThat(name(d, "10.3.0.1")).isEqualTo("a");
        assertThat(name(d, "10.2.255.255")).isEqualTo("e");
        assertThat(name(d, "11.0.0.0")).isEqualTo("default");
        assertThat(name(d, "2001:db8:1:2::3")).isEqualTo("v6b");
        assertThat(name(d, "2001:db8:2::3")).isEqualTo("v6a");
        assertThat(name(d, "2a00::1")).isEqualTo("v6default");
        assertThat(name(d, "::ffff:10.1.2.130")).as("IPv4-mapped matches IPv4 rows").isEqualTo("d");
    }

    @Test
    void longestPrefixMatch_agreesWithBruteForceOnRandomNestedPrefixes() throws IOException {
        Random rnd = new Random(42);
        List<Cidr> cidrs = new ArrayList<>();
        StringBuilder csv = new StringBuilder("network,id\n");
        for (int i = 0; i < 3000; i++) {
            boolean v4 = rnd.nextBoolean();
            // few distinct top bits so prefixes nest often
            long hi = v4 ? 0 : (0x2001_0db8L << 32) | (rnd.nextInt(4) & 0xFFFFL) << 16;
            long lo = v4 ? ((long) rnd.nextInt(4) << 30 | rnd.nextInt(1 << 20) << 8) & 0xFFFF_FFFFL : rnd.nextLong();
            int prefix = v4 ? 2 + rnd.nextInt(31) : 30 + rnd.nextInt(99);
            Cidr c = new Cidr(Cidr.masked(new IpAddress(v4, hi, lo), prefix), prefix);
            if (cidrs.contains(c)) {
                continue;
            }
            cidrs.add(c);
            csv.append(c).append(',').append(cidrs.size() - 1).append('\n');
        }
        IpDataset d = load(csv.toString());
        assertThat(d.size()).isEqualTo(cidrs.size());
        for (int k = 0; k < 20_000; k++) {
            Cidr base = cidrs.get(rnd.nextInt(cidrs.size()));
            IpAddress probe = perturb(base.network(), rnd);
            Optional<Integer> expected = cidrs.stream().filter(c -> c.contains(probe))
                    .max((a, b) -> Integer.compare(a.prefix(), b.prefix())).map(cidrs::indexOf);
            Optional<Integer> actual = d.lookup(probe).map(m -> Integer.parseInt(m.attributes().get("id")));
            assertThat(actual).as("lookup of %s", probe).isEqualTo(expected);
        }
    }

    private static IpAddress perturb(IpAddress a, Random rnd) {
        int bits = rnd.nextInt(a.v4() ? 33 : 129);
        if (a.v4()) {
            long flip = bits >= 32 ? 0 : (1L << bits) & 0xFFFF_FFFFL;
            return new IpAddress(true, 0, (a.lo() ^ flip ^ (rnd.nextInt(256))) & 0xFFFF_FFFFL);
        }
        long lo = a.lo() ^ (bits < 64 ? 1L << bits : 0) ^ rnd.nextInt(65536);
        long hi = a.hi() ^ (bits >= 64 && bits < 128 ? 1L << (bits - 64) : 0);
        return new IpAddress(false, hi, lo);
    }

    @Test
    void badRows_areSkippedWithTheirLineNumberAndTheRestLoads() throws IOException {
        DatasetLoad.Loaded l = loaded("network,org\n"
                + "192.0.2.0/24,ok\n"
                + "192.0.2.1/24,host bits\n"
                + "not-an-ip,bad\n"
                + "198.51.100.0/24\n"
                + "192.0.2.0/24,duplicate\n"
                + "203.0.113.0/24,\"unterminated\n");
        assertThat(l.dataset().size()).isEqualTo(1);
        assertThat(l.rows()).isEqualTo(6);
        assertThat(l.skipped()).isEqualTo(5);
        assertThat(l.errors()).extracting(Object::toString).containsExactlyInAnyOrder(
                "line 3: network '192.0.2.1/24': host bits are set after the /24 prefix; the network is 192.0.2.0/24",
                "line 4: network 'not-an-ip': not an IP address: expected an IPv4 address such as 203.0.113.7 or an IPv6 address "
                        + "such as 2001:db8::1 (host names are not resolved)",
                "line 5: expected 2 fields as in the header, found 1",
                "line 6: network 192.0.2.0/24 is already defined on line 2",
                "line 7: a quoted field is not closed before the end of the file");
        assertThat(name(l.dataset(), "192.0.2.7", "org")).isEqualTo("ok");
        assertThat(l.summary()).contains("1 networks loaded from 6 rows; 5 rows skipped");
    }

    @Test
    void aLongPrefix_isQuotedShortInItsRowError() throws IOException {
        DatasetLoad.Loaded l = loaded("network,org\n192.0.2.0/" + "9".repeat(2_000) + ",x\n198.51.100.0/24,ok\n");
        assertThat(l.errors()).singleElement().satisfies(e -> assertThat(e.message()).hasSizeLessThan(200).contains("is not a prefix length"));
    }

    @Test
    void oversizedFieldsAndTextAfterAClosingQuote_areRowErrors() throws IOException {
        IpDatasetParser small = new IpDatasetParser(new IpDatasetParser.Limits(100, 8, 32));
        DatasetLoad.Loaded l = (DatasetLoad.Loaded) small.parse(new StringReader(
                "network,org\n192.0.2.0/24," + "x".repeat(100) + "\n198.51.100.0/24,\"a\"b\n203.0.113.0/24,fine\n"));
        assertThat(l.errors()).extracting(DatasetLoad.RowError::message)
                .containsExactly("a field is longer than 32 characters", "text after the closing quote of a field");
        assertThat(l.dataset().size()).isEqualTo(1);
    }

    @Test
    void unusableFiles_areRejectedWithWhatToFix() throws IOException {
        assertThat(rejected("")).contains("empty").contains("network column");
        assertThat(rejected("asn,org\n1,x\n")).contains("no network column").contains("found: asn, org");
        assertThat(rejected("network,org,ORG\n")).contains("'ORG' appears twice");
        // a header of 64 fields of 4,096 characters was quoted whole: a quarter of a megabyte in one start-up message
        String wide = String.join(",", java.util.stream.IntStream.range(0, 64).mapToObj(i -> i + "x".repeat(4_000)).toList());
        assertThat(rejected(wide + "\n")).hasSizeLessThan(1_200).contains("and 54 more");
        assertThat(rejected("a,org,\"" + "y".repeat(3_000) + "\u001b\",\"" + "y".repeat(3_000) + "\u001b\"\n"))
                .hasSizeLessThan(200).contains("appears twice").doesNotContain("\u001b");
        IpDatasetParser tiny = new IpDatasetParser(new IpDatasetParser.Limits(2, 8, 64));
        assertThat(((DatasetLoad.Rejected) tiny.parse(new StringReader("network\n1.0.0.0/8\n2.0.0.0/8\n3.0.0.0/8\n"))).reason())
                .contains("more than 2 rows");
    }

    @Test
    void aFileWithAnotherSeparatorOrWithoutAHeader_isRejectedSayingWhich() throws IOException {
        // spreadsheets in many locales export with ';': the reason said only that no column was named network
        assertThat(rejected("network;asn;org\n203.0.113.0/24;64500;Example\n"))
                .contains("found: network;asn;org").contains("separated by ';'").contains("export it with ','");
        assertThat(rejected("network\tasn\n203.0.113.0/24\t64500\n")).contains("separated by tabs");
        assertThat(rejected("203.0.113.0/24,64500,Example\n198.51.100.0/24,64501,Other\n"))
                .contains("the first row holds data, not column names: add a header row");
        assertThat(rejected("asn,org\n1,x\n")).as("a header that is one, without a network column").endsWith("(found: asn, org)");
    }

    @Test
    void aRangeInTheNetworkColumn_saysWhichCidrToWrite_notThatHostNamesAreNotResolved() throws IOException {
        DatasetLoad.Loaded l = loaded("ip_range,org\n"
                + "203.0.113.0-203.0.113.255,one block\n"
                + "2001:db8:: - 2001:db8::ffff,v6 block\n"
                + "198.51.100.0-198.51.100.9,no block\n"
                + "198.51.100.7,fine\n");
        assertThat(l.errors()).extracting(Object::toString).containsExactly(
                "line 2: network '203.0.113.0-203.0.113.255': a range is not CIDR notation; write it as 203.0.113.0/24",
                "line 3: network '2001:db8:: - 2001:db8::ffff': a range is not CIDR notation; write it as 2001:db8::/112",
                "line 4: network '198.51.100.0-198.51.100.9': a range is not CIDR notation, and 198.51.100.0 - 198.51.100.9 is no single"
                        + " CIDR network; write one row per CIDR network it spans");
        assertThat(l.dataset().size()).isEqualTo(1);
    }

    /** A reader that never ends, as {@code /dev/zero} named by mistake, counting what was asked of it. */
    private static final class Endless extends java.io.Reader {
        private final char fill;
        long served;

        Endless(char fill) {
            this.fill = fill;
        }

        @Override
        public int read(char[] buffer, int offset, int length) {
            java.util.Arrays.fill(buffer, offset, offset + length, fill);
            served += length;
            return length;
        }

        @Override
        public void close() {}
    }

    @Test
    void anInputWithoutLineEnds_isRejectedAfterOneRecordsWorth_notReadForever() throws IOException {
        IpDatasetParser.Limits limits = IpDatasetParser.Limits.defaults();
        for (char fill : new char[] {'\0', ','}) {
            Endless zeros = new Endless(fill);
            // without a bound this never returns: fail after a while instead of hanging the build
            DatasetLoad load = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                    () -> new IpDatasetParser().parse(zeros));
            assertThat(load).isInstanceOf(DatasetLoad.Rejected.class);
            assertThat(((DatasetLoad.Rejected) load).reason()).startsWith("line 1: a record runs past " + limits.maxRecordLength()
                    + " characters").contains("is every quote closed");
            assertThat(zeros.served).isLessThan(limits.maxRecordLength() + 128 * 1024);
        }
        // the same after a valid header and rows: the line named is where the runaway record starts
        Endless tail = new Endless(',');
        java.io.Reader file = new java.io.Reader() {
            private final java.io.Reader head = new StringReader("network,org\n192.0.2.0/24,ok\n");

            @Override
            public int read(char[] buffer, int offset, int length) throws IOException {
                int n = head.read(buffer, offset, length);
                return n >= 0 ? n : tail.read(buffer, offset, length);
            }

            @Override
            public void close() {}
        };
        DatasetLoad load = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> new IpDatasetParser().parse(file));
        assertThat(((DatasetLoad.Rejected) load).reason()).startsWith("line 3: a record runs past");
    }

    @Test
    void anUnclosedQuoteEarlyInABigFile_rejectsTheFileNamingItsLine() throws IOException {
        IpDatasetParser small = new IpDatasetParser(new IpDatasetParser.Limits(100_000, 4, 32));
        StringBuilder csv = new StringBuilder("network,org\n192.0.2.0/24,\"unclosed\n");
        for (int i = 0; i < 1000; i++) {
            csv.append("10.").append(i / 256).append('.').append(i % 256).append(".0/24,row\n");
        }
        DatasetLoad load = small.parse(new StringReader(csv.toString()));
        assertThat(((DatasetLoad.Rejected) load).reason()).startsWith("line 2: a record runs past 270 characters");
    }

    @Test
    void networksOutsideTheirFamily_andMappedAddresses_areRowErrorsOrMatches() throws IOException {
        DatasetLoad.Loaded l = loaded("network,org\n192.0.2.0/33,v4\n2001:db8::/129,v6\n198.51.100.0/24,ok\n");
        assertThat(l.errors()).extracting(DatasetLoad.RowError::line).containsExactly(2L, 3L);
        assertThat(l.errors()).extracting(DatasetLoad.RowError::message).allSatisfy(m -> assertThat(m).contains("prefix /"));
        assertThat(name(l.dataset(), "::ffff:198.51.100.7", "org")).isEqualTo("ok");

        // a mapped network's prefix counts IPv6 bits: /120 is the IPv4 /24, and /24 is not read as an IPv4 /24
        DatasetLoad.Loaded mapped = loaded("network,org\n::ffff:203.0.113.0/120,mapped\n::ffff:192.0.2.0/24,wrong\n");
        assertThat(name(mapped.dataset(), "203.0.113.200", "org")).isEqualTo("mapped");
        assertThat(mapped.errors()).extracting(Object::toString).containsExactly("line 3: network '::ffff:192.0.2.0/24': prefix /24 on "
                + "the IPv4-mapped address ::ffff:192.0.2.0 must be /96 to /128 (the mapped IPv4 range); write the IPv4 network instead, "
                + "for example 192.0.2.0/24");
    }

    @Test
    void lookups_inALargeDataset_areLogarithmicallyFast() throws IOException {
        StringBuilder csv = new StringBuilder("network,asn\n");
        for (int i = 0; i < 200_000; i++) {
            csv.append((i >> 16) & 255).append('.').append((i >> 8) & 255).append('.').append(i & 255).append(".0/24,").append(i).append('\n');
        }
        IpDataset d = load(csv.toString());
        assertThat(d.size()).isEqualTo(200_000);
        Random rnd = new Random(1);
        IpAddress[] probes = new IpAddress[100_000];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = new IpAddress(true, 0, rnd.nextInt() & 0xFFFF_FFFFL);
        }
        int hits = 0;
        long t0 = System.nanoTime();
        for (IpAddress p : probes) {
            hits += d.lookup(p).isPresent() ? 1 : 0;
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(hits).isPositive();
        assertThat(ms).as("100k lookups in 200k networks").isLessThan(2000);
    }

    private static String name(IpDataset d, String address) {
        return name(d, address, "name");
    }

    private static String name(IpDataset d, String address, String column) {
        return d.lookup(IpAddress.parseOrError(address)).map(m -> m.attributes().get(column)).orElse(null);
    }
}
