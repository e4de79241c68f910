package dev.omcp.core.ipenrich;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An offline IP dataset: networks with attributes (for example {@code asn}, {@code org},
 * {@code country}), answering longest-prefix match. Immutable and thread-safe; built by
 * {@link IpDatasetParser}.
 *
 * <p>Structure: per address family, the networks sorted by first address (a broader network before
 * a narrower one with the same start), each with the index of its nearest enclosing network. A
 * lookup binary-searches the last network starting at or before the address, then walks up the
 * enclosing networks until one contains it. CIDR networks are either nested or disjoint, so the
 * first that contains it is the longest prefix. Cost: O(log n) for the search plus at most one
 * step per nesting level (at most 33 for IPv4, 129 for IPv6, in practice 1 to 3).
 */
public final class IpDataset {
    private final List<String> columns;
    private final Family v4;
    private final Family v6;

    /** A longest-prefix match: the network and its attributes (column name to value, empty values left out). */
    public record Match(Cidr network, Map<String, String> attributes) {}

    IpDataset(List<String> columns, Family v4, Family v6) {
        this.columns = List.copyOf(columns);
        this.v4 = v4;
        this.v6 = v6;
    }

    /** An empty dataset (no file configured). */
    public static IpDataset empty() {
        return new IpDataset(List.of(), Family.build(new ArrayList<>(), List.of()), Family.build(new ArrayList<>(), List.of()));
    }

    /** The attribute column names, in file order (the network column excluded). */
    public List<String> columns() {
        return columns;
    }

    /** How many networks it holds. */
    public int size() {
        return v4.size() + v6.size();
    }

    /** The most specific network containing {@code address}, or empty. */
    public Optional<Match> lookup(IpAddress address) {
        Family f = address.v4() ? v4 : v6;
        int i = f.find(address.hi(), address.lo());
        if (i < 0) {
            return Optional.empty();
        }
        String[] values = f.values.get(f.record[i]);
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int c = 0; c < columns.size() && c < values.length; c++) {
            if (values[c] != null && !values[c].isEmpty()) {
                attributes.put(columns.get(c), values[c]);
            }
        }
        int prefix = Byte.toUnsignedInt(f.prefix[i]); // stored in a byte: /128 is -128 read signed
        IpAddress network = new IpAddress(address.v4(), f.hi[i], f.lo[i]);
        return Optional.of(new Match(new Cidr(network, prefix), Collections.unmodifiableMap(attributes)));
    }

    /** One network before it is placed, with the file line it came from. */
    record Entry(Cidr cidr, int record, long line) {}

    /** The networks of one address family, sorted, with enclosing-network links. */
    static final class Family {
        final long[] hi;
        final long[] lo;
        final long[] lastHi;
        final long[] lastLo;
        final byte[] prefix;
        final int[] record;
        final int[] parent;
        final List<String[]> values;

        private Family(int n, List<String[]> values) {
            hi = new long[n];
            lo = new long[n];
            lastHi = new long[n];
            lastLo = new long[n];
            prefix = new byte[n];
            record = new int[n];
            parent = new int[n];
            this.values = values;
        }

        int size() {
            return hi.length;
        }

        /** Sorts the entries and links each to its nearest enclosing network. Entries are unique networks. */
        static Family build(List<Entry> entries, List<String[]> values) {
            entries.sort((a, b) -> {
                int c = compare(a.cidr().network().hi(), a.cidr().network().lo(), b.cidr().network().hi(), b.cidr().network().lo());
                return c != 0 ? c : Integer.compare(a.cidr().prefix(), b.cidr().prefix());
            });
            Family f = new Family(entries.size(), values);
            int[] stack = new int[130];
            int depth = 0;
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entries.get(i);
                IpAddress last = e.cidr().last();
                f.hi[i] = e.cidr().network().hi();
                f.lo[i] = e.cidr().network().lo();
                f.lastHi[i] = last.hi();
                f.lastLo[i] = last.lo();
                f.prefix[i] = (byte) e.cidr().prefix();
                f.record[i] = e.record();
                while (depth > 0 && !f.contains(stack[depth - 1], f.hi[i], f.lo[i])) {
                    depth--;
                }
                f.parent[i] = depth == 0 ? -1 : stack[depth - 1];
                stack[depth++] = i;
            }
            return f;
        }

        boolean contains(int i, long aHi, long aLo) {
            return compare(hi[i], lo[i], aHi, aLo) <= 0 && compare(aHi, aLo, lastHi[i], lastLo[i]) <= 0;
        }

        int find(long aHi, long aLo) {
            int lo = 0;
            int high = hi.length - 1;
            int found = -1;
            while (lo <= high) {
                int mid = (lo + high) >>> 1;
                if (compare(hi[mid], this.lo[mid], aHi, aLo) <= 0) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    high = mid - 1;
                }
            }
            int i = found;
            while (i >= 0 && !contains(i, aHi, aLo)) {
                i = parent[i];
            }
            return i;
        }

        static int compare(long aHi, long aLo, long bHi, long bLo) {
            int c = Long.compareUnsigned(aHi, bHi);
            return c != 0 ? c : Long.compareUnsigned(aLo, bLo);
        }

        @Override
        public String toString() {
            return "Family[" + hi.length + " networks, first " + (hi.length == 0 ? "-" : Arrays.toString(new long[] {hi[0], lo[0]})) + "]";
        }
    }
}
