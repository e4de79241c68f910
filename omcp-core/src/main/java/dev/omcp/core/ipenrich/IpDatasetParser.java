package dev.omcp.core.ipenrich;

import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the offline IP dataset ({@code OMCP_IP_ENRICH_FILE}): CSV per RFC 4180 (comma-separated,
 * fields optionally in double quotes, {@code ""} for a quote inside, quoted fields may span lines;
 * LF or CRLF line ends; a UTF-8 byte-order mark is ignored) with a header row.
 *
 * <p>The header names one network column, {@code network}, {@code cidr}, {@code prefix},
 * {@code subnet} or {@code ip_range} (any case); it holds IPv4 or IPv6 networks in CIDR notation
 * (a bare address is a single host). Every other column becomes an attribute of the network under
 * its header name, for example
 * <pre>
 * network,asn,org,country
 * 203.0.113.0/24,64500,"Example, Inc.",NL
 * 2001:db8::/32,64501,Example IPv6,DE
 * </pre>
 *
 * <p>A bad row (wrong field count, invalid network, host bits set, a duplicate network, a field
 * longer than the limit, an unterminated quote) is skipped and reported with its line number; the
 * rest still loads. A missing header or network column, duplicate column names, more rows than
 * the limit or a record longer than any valid one ({@link Limits#maxRecordLength()}: the rest of
 * the input cannot be split into rows, or never ends) reject the whole file. The reader is
 * consumed up to that point, not closed.
 */
public final class IpDatasetParser {
    /** How many row errors are reported (the count of skipped rows is always exact). */
    public static final int MAX_REPORTED_ERRORS = 100;
    /** Columns of a header a message names; the rest are counted. */
    private static final int SHOWN_COLUMNS = 10;
    private static final Set<String> NETWORK_COLUMNS = Set.of("network", "cidr", "prefix", "subnet", "ip_range");

    /**
     * Bounds on a hostile or broken file.
     *
     * @param maxRows the most data rows
     * @param maxColumns the most columns
     * @param maxFieldLength the longest field, in characters
     */
    public record Limits(long maxRows, int maxColumns, int maxFieldLength) {
        public static Limits defaults() {
            return new Limits(10_000_000, 64, 4096);
        }

        public Limits {
            if (maxRows < 1 || maxColumns < 2 || maxFieldLength < 16) {
                throw new IllegalArgumentException("limits need maxRows >= 1, maxColumns >= 2, maxFieldLength >= 16");
            }
        }

        /** The longest a valid record can be: every field at its longest, quoted with every quote doubled, plus CRLF. */
        public long maxRecordLength() {
            return (long) maxColumns * (2L * maxFieldLength + 3) + 2;
        }
    }

    private final Limits limits;

    public IpDatasetParser(Limits limits) {
        this.limits = limits;
    }

    public IpDatasetParser() {
        this(Limits.defaults());
    }

    /**
     * Reads a dataset.
     *
     * @throws IOException when the reader fails (the caller reports it; a dataset that cannot be
     *     read is no dataset, never half of one)
     */
    public DatasetLoad parse(Reader reader) throws IOException {
        Csv csv = new Csv(reader, limits);
        Csv.Record header = csv.next();
        while (header != null && header.blank()) {
            header = csv.next();
        }
        if (header == null) {
            return new DatasetLoad.Rejected("the file is empty: it needs a header row naming a network column (network, cidr, prefix, subnet or ip_range)");
        }
        if (header.runaway()) {
            return runaway(header);
        }
        if (header.error() != null) {
            return new DatasetLoad.Rejected("header row (line " + header.line() + "): " + header.error());
        }
        List<String> names = new ArrayList<>();
        int networkColumn = -1;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < header.fields().size(); i++) {
            String name = header.fields().get(i).strip();
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                return new DatasetLoad.Rejected("header row: the column name '" + BackendText.quoted(name, 64) + "' appears twice");
            }
            if (networkColumn < 0 && NETWORK_COLUMNS.contains(name.toLowerCase(Locale.ROOT))) {
                networkColumn = i;
            } else {
                names.add(name);
            }
        }
        if (networkColumn < 0) {
            return new DatasetLoad.Rejected("header row: no network column; name one network, cidr, prefix, subnet or ip_range (found: "
                    + shownColumns(header.fields()) + ")" + headerHint(header.fields()));
        }
        int width = header.fields().size();

        List<IpDataset.Entry> v4 = new ArrayList<>();
        List<IpDataset.Entry> v6 = new ArrayList<>();
        List<String[]> values = new ArrayList<>();
        Map<String, String> pool = new HashMap<>();
        List<DatasetLoad.RowError> errors = new ArrayList<>();
        long rows = 0;
        long skipped = 0;
        Csv.Record r;
        while ((r = csv.next()) != null) {
            if (r.runaway()) {
                return runaway(r);
            }
            if (r.blank()) {
                continue;
            }
            rows++;
            if (rows > limits.maxRows()) {
                return new DatasetLoad.Rejected("the file has more than " + limits.maxRows() + " rows; split it or raise the limit");
            }
            String problem = r.error();
            Cidr cidr = null;
            if (problem == null && r.fields().size() != width) {
                problem = "expected " + width + " fields as in the header, found " + r.fields().size();
            }
            if (problem == null) {
                try {
                    cidr = Cidr.parse(r.fields().get(networkColumn));
                } catch (IllegalArgumentException e) {
                    problem = "network '" + shorten(r.fields().get(networkColumn)) + "': "
                            + rangeAdvice(r.fields().get(networkColumn)).orElse(e.getMessage());
                }
            }
            if (problem != null) {
                skipped++;
                if (errors.size() < MAX_REPORTED_ERRORS) {
                    errors.add(new DatasetLoad.RowError(r.line(), problem));
                }
                continue;
            }
            String[] row = new String[width - 1];
            for (int i = 0, k = 0; i < width; i++) {
                if (i != networkColumn) {
                    String v = r.fields().get(i).strip();
                    // rows repeat countries, ASNs and organisations: share one string per distinct value
                    row[k++] = pool.size() < 1_000_000 ? pool.computeIfAbsent(v, x -> x) : v;
                }
            }
            values.add(row);
            (cidr.network().v4() ? v4 : v6).add(new IpDataset.Entry(cidr, values.size() - 1, r.line()));
        }
        skipped += dropDuplicates(v4, errors) + dropDuplicates(v6, errors);
        IpDataset dataset = new IpDataset(names, IpDataset.Family.build(v4, values), IpDataset.Family.build(v6, values));
        return new DatasetLoad.Loaded(dataset, rows, skipped, errors);
    }

    /** Keeps the first of several rows naming the same network (in file order). */
    private static long dropDuplicates(List<IpDataset.Entry> entries, List<DatasetLoad.RowError> errors) {
        entries.sort((a, b) -> {
            int c = IpDataset.Family.compare(a.cidr().network().hi(), a.cidr().network().lo(), b.cidr().network().hi(), b.cidr().network().lo());
            if (c != 0) {
                return c;
            }
            c = Integer.compare(a.cidr().prefix(), b.cidr().prefix());
            return c != 0 ? c : Long.compare(a.line(), b.line());
        });
        List<IpDataset.Entry> unique = new ArrayList<>(entries.size());
        long dropped = 0;
        for (IpDataset.Entry e : entries) {
            IpDataset.Entry last = unique.isEmpty() ? null : unique.getLast();
            if (last != null && last.cidr().equals(e.cidr())) {
                dropped++;
                if (errors.size() < MAX_REPORTED_ERRORS) {
                    errors.add(new DatasetLoad.RowError(e.line(), "network " + e.cidr() + " is already defined on line " + last.line()));
                }
                continue;
            }
            unique.add(e);
        }
        entries.clear();
        entries.addAll(unique);
        return dropped;
    }

    /**
     * A record longer than any valid one can be: the rest of the file cannot be split into rows
     * reliably (an unclosed quote, no line ends at all as in {@code /dev/zero}), so nothing of it
     * is used, and reading stops here instead of running to the end of an endless input.
     */
    private DatasetLoad.Rejected runaway(Csv.Record r) {
        return new DatasetLoad.Rejected("line " + r.line() + ": a record runs past " + limits.maxRecordLength() + " characters (what "
                + limits.maxColumns() + " fields of " + limits.maxFieldLength() + " characters take) without ending; is this a CSV "
                + "file, and is every quote closed?");
    }

    /**
     * Why a header without a network column is no header: the usual causes are an export with
     * another separator (spreadsheets in many locales write ';') and a file without a header row,
     * whose first row of data was read as column names. Empty when neither applies.
     */
    private static String headerHint(List<String> fields) {
        if (fields.size() == 1) {
            String only = fields.getFirst();
            for (char separator : new char[] {';', '\t', '|'}) {
                if (only.indexOf(separator) >= 0) {
                    return "; the columns are separated by " + (separator == '\t' ? "tabs" : "'" + separator + "'")
                            + ", and the dataset is comma-separated CSV: export it with ',' between the fields";
                }
            }
        }
        for (String field : fields) {
            try {
                Cidr.parse(field);
                return "; the first row holds data, not column names: add a header row naming the columns, for example "
                        + "network,asn,org";
            } catch (IllegalArgumentException notANetwork) {
                // a column name, as it should be
            }
        }
        return "";
    }

    /**
     * What to write instead of a range ({@code 10.0.0.0-10.0.0.255}), which is not CIDR notation: the
     * network it is when it is one block, else its split into several rows. Empty when the field is
     * no range of two addresses.
     */
    static Optional<String> rangeAdvice(String field) {
        int dash = field.indexOf('-');
        if (dash < 0) {
            return Optional.empty();
        }
        Optional<IpAddress> first = IpAddress.parse(field.substring(0, dash));
        Optional<IpAddress> last = IpAddress.parse(field.substring(dash + 1));
        if (first.isEmpty() || last.isEmpty() || first.get().v4() != last.get().v4()) {
            return Optional.empty();
        }
        for (int prefix = 0; prefix <= first.get().bits(); prefix++) {
            Cidr block = new Cidr(Cidr.masked(first.get(), prefix), prefix);
            if (block.network().equals(first.get()) && block.last().equals(last.get())) {
                return Optional.of("a range is not CIDR notation; write it as " + block);
            }
        }
        return Optional.of("a range is not CIDR notation, and " + first.get() + " - " + last.get() + " is no single CIDR network;"
                + " write one row per CIDR network it spans");
    }

    private static String shorten(String s) {
        return BackendText.quoted(s, 64);
    }

    /** The first columns of a header as a message shows them: a header may have 64 fields of 4,096 characters. */
    private static String shownColumns(List<String> fields) {
        String shown = fields.stream().limit(SHOWN_COLUMNS).map(f -> BackendText.quoted(f.strip(), 64)).collect(Collectors.joining(", "));
        return fields.size() > SHOWN_COLUMNS ? shown + " and " + (fields.size() - SHOWN_COLUMNS) + " more" : shown;
    }

    /** An RFC 4180 record reader with line numbers and bounded fields. */
    static final class Csv {
        record Record(List<String> fields, long line, String error, boolean runaway) {
            boolean blank() {
                return error == null && fields.size() == 1 && fields.getFirst().isBlank();
            }
        }

        private final Reader reader;
        private final Limits limits;
        private final char[] buf = new char[64 * 1024];
        private int pos;
        private int len;
        private long line = 1;
        private int pushback = -1;
        private boolean atStart = true;

        Csv(Reader reader, Limits limits) {
            this.reader = reader;
            this.limits = limits;
        }

        private int read() throws IOException {
            if (pushback >= 0) {
                int c = pushback;
                pushback = -1;
                return c;
            }
            if (pos == len) {
                len = reader.read(buf, 0, buf.length);
                pos = 0;
                if (len <= 0) {
                    len = 0;
                    return -1;
                }
            }
            return buf[pos++];
        }

        /** The next record, or null at the end. */
        Record next() throws IOException {
            int c = read();
            if (c == '\uFEFF' && atStart) {
                // a byte-order mark belongs to the file, not to its first field, which may be quoted after it
                c = read();
            }
            atStart = false;
            if (c < 0) {
                return null;
            }
            long start = line;
            long length = 0;
            List<String> fields = new ArrayList<>();
            StringBuilder field = new StringBuilder();
            String error = null;
            boolean inQuotes = false;
            boolean closedQuote = false;
            while (true) {
                if (++length > limits.maxRecordLength()) {
                    return new Record(fields, start, "the record does not end", true);
                }
                if (c < 0) {
                    if (inQuotes && error == null) {
                        error = "a quoted field is not closed before the end of the file";
                    }
                    break;
                }
                char ch = (char) c;
                if (inQuotes) {
                    if (ch == '"') {
                        int d = read();
                        if (d == '"') {
                            append(field, '"');
                        } else {
                            inQuotes = false;
                            closedQuote = true;
                            pushback = d;
                        }
                    } else {
                        if (ch == '\n') {
                            line++;
                        }
                        if (!append(field, ch) && error == null) {
                            error = "a field is longer than " + limits.maxFieldLength() + " characters";
                        }
                    }
                } else if (ch == ',') {
                    if (fields.size() < limits.maxColumns()) {
                        fields.add(field.toString());
                    }
                    field.setLength(0);
                    closedQuote = false;
                    if (fields.size() >= limits.maxColumns() && error == null) {
                        error = "more than " + limits.maxColumns() + " fields";
                    }
                } else if (ch == '\n' || ch == '\r') {
                    if (ch == '\r') {
                        int d = read();
                        if (d != '\n') {
                            pushback = d;
                        }
                    }
                    line++;
                    break;
                } else if (ch == '"' && field.isEmpty() && !closedQuote) {
                    inQuotes = true;
                } else if (closedQuote) {
                    if (error == null) {
                        error = "text after the closing quote of a field";
                    }
                } else if (!append(field, ch) && error == null) {
                    error = "a field is longer than " + limits.maxFieldLength() + " characters";
                }
                c = read();
            }
            if (fields.size() < limits.maxColumns()) {
                fields.add(field.toString());
            }
            return new Record(fields, start, error, false);
        }

        private boolean append(StringBuilder field, char ch) {
            if (field.length() >= limits.maxFieldLength()) {
                return false;
            }
            field.append(ch);
            return true;
        }
    }
}
