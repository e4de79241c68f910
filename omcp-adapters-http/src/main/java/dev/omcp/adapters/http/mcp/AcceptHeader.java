package dev.omcp.adapters.http.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an {@code Accept} header allows, read as RFC 9110 12.5.1 says: media ranges with wildcards
 * ({@code * / *}, {@code text/*}), case-insensitive, each with a weight {@code q} (default 1), where
 * {@code q=0} means "not acceptable" and the most specific range that matches a type decides for it
 * ({@code * / *, application/json;q=0} allows anything but JSON).
 *
 * <p>Tolerant where clients differ and nothing is at stake: parameters other than {@code q} are
 * ignored (a client sending {@code application/json;charset=utf-8} means JSON), and an element that
 * cannot be read is left out rather than failing the whole header. Strict where HTTP is: an element
 * left out allows nothing, so a header of nothing readable allows nothing.
 */
final class AcceptHeader {
    /** RFC 9110 12.4.2: "0" to "1" with at most three decimals. */
    private static final Pattern QVALUE = Pattern.compile("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?");

    /** One readable element: a range and its weight. */
    private record Range(String type, String subtype, double weight) {
        boolean matches(String wantedType, String wantedSubtype) {
            return (type.equals("*") || type.equals(wantedType)) && (subtype.equals("*") || subtype.equals(wantedSubtype));
        }

        /** RFC 9110 12.5.1: a specific type beats {@code type/*}, which beats {@code * / *}. */
        int specificity() {
            return type.equals("*") ? 0 : subtype.equals("*") ? 1 : 2;
        }
    }

    private final List<Range> ranges;

    private AcceptHeader(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * Reads the values of every {@code Accept} field of a request (a list may be split over several
     * fields, RFC 9110 5.3).
     */
    static AcceptHeader parse(List<String> fieldValues) {
        List<Range> ranges = new ArrayList<>();
        for (String value : fieldValues) {
            for (String element : MediaType.listElements(value)) {
                MediaType.parse(element).flatMap(AcceptHeader::range).ifPresent(ranges::add);
            }
        }
        return new AcceptHeader(ranges);
    }

    private static Optional<Range> range(MediaType mediaType) {
        String q = mediaType.parameters().get("q");
        if (q == null) {
            return Optional.of(new Range(mediaType.type(), mediaType.subtype(), 1));
        }
        if (!QVALUE.matcher(q).matches()) {
            return Optional.empty();
        }
        return Optional.of(new Range(mediaType.type(), mediaType.subtype(), Double.parseDouble(q)));
    }

    /**
     * Whether {@code type/subtype} (lower case) is acceptable: the most specific ranges that match it
     * give it a weight above 0.
     */
    boolean allows(String type, String subtype) {
        return deciding(type, subtype).filter(range -> range.weight() > 0).isPresent();
    }

    /**
     * Whether {@code type/subtype} is acceptable by a range that names it or its type
     * ({@code text/event-stream}, {@code text/*}), not only by {@code * / *}: a client that accepts
     * anything has not said it can read that type in particular.
     */
    boolean names(String type, String subtype) {
        return deciding(type, subtype).filter(range -> range.weight() > 0 && range.specificity() > 0).isPresent();
    }

    /**
     * The range that decides for {@code type/subtype}: of those that match it, the most specific; of
     * equally specific ones (which differ only in parameters this reading ignores), the heaviest.
     */
    private Optional<Range> deciding(String type, String subtype) {
        Range deciding = null;
        for (Range range : ranges) {
            if (range.matches(type, subtype) && (deciding == null || range.specificity() > deciding.specificity()
                    || (range.specificity() == deciding.specificity() && range.weight() > deciding.weight()))) {
                deciding = range;
            }
        }
        return Optional.ofNullable(deciding);
    }
}
