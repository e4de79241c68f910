package dev.omcp.adapters.storage.audit;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a path-style S3 address must be, checked when the gateway starts: a store refuses a bad one
 * only at the first delivery, after which every batch would be dead-lettered.
 */
public final class S3Addressing {
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IP_SHAPED = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private S3Addressing() {}

    /**
     * Why {@code bucket} is not a name S3 accepts (its bucket naming rules), or empty. Names ending
     * in {@code -s3alias} are accepted: reserved for buckets, they are how an access point's alias
     * ends, and the alias stands in for a bucket name in object operations.
     *
     * @return a sentence that goes after the variable's name, starting with "must"
     */
    public static Optional<String> bucketProblem(String bucket) {
        String rule;
        if (!BUCKET.matcher(bucket).matches()) {
            rule = "3-63 of a-z, 0-9, '.', '-', starting and ending with a letter or digit";
        } else if (bucket.contains("..")) {
            rule = "no two periods in a row";
        } else if (IP_SHAPED.matcher(bucket).matches()) {
            rule = "not shaped like an IP address";
        } else if (bucket.startsWith("xn--")) {
            rule = "not starting with 'xn--', which S3 reserves";
        } else {
            return Optional.empty();
        }
        return Optional.of("must be a bucket name: " + rule + ", got '" + bucket + "'");
    }

    /**
     * Why the path of {@code endpoint} cannot be put before the bucket, or empty: S3 signs the path
     * with each segment decoded from UTF-8, so a percent-encoded byte sequence that is not UTF-8 has
     * no canonical form the gateway and the store would agree on.
     *
     * @return a sentence that goes after the variable's name, starting with "must"
     */
    public static Optional<String> basePathProblem(URI endpoint) {
        String raw = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
        for (String segment : raw.split("/", -1)) {
            if (decodeSegment(segment).isEmpty()) {
                return Optional.of("must have a path whose percent-encoded bytes are UTF-8 (S3 signs the decoded path);"
                        + " write the path's characters as UTF-8, for example /caf%C3%A9");
            }
        }
        return Optional.empty();
    }

    /**
     * The endpoint's path without a trailing slash, each segment in the form S3 signs: decoded, then
     * URI-encoded once (unreserved characters plain, every other byte as upper-case {@code %XX}). The
     * store computes its canonical path that way from the path it receives; sending the path in that
     * form already makes the path sent, the path signed and the path the store computes one and the
     * same ({@code /%7Efoo} goes out as {@code /~foo}, {@code /a+b} as {@code /a%2Bb}).
     *
     * @throws IllegalArgumentException when {@link #basePathProblem} reports a problem
     */
    static String canonicalBasePath(URI endpoint) {
        String raw = endpoint.getRawPath() == null ? "" : endpoint.getRawPath().replaceAll("/+$", "");
        StringBuilder path = new StringBuilder(raw.length() + 16);
        String[] segments = raw.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                path.append('/');
            }
            String decoded = decodeSegment(segments[i]).orElseThrow(() -> new IllegalArgumentException(
                    "the endpoint's path " + basePathProblem(endpoint).orElse("is not valid")));
            path.append(SigV4Signer.uriEncode(decoded, false));
        }
        return path.toString();
    }

    /** The segment with its {@code %XX} escapes decoded, when the bytes are UTF-8. */
    private static Optional<String> decodeSegment(String segment) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        byte[] plain = segment.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < plain.length; i++) {
            if (plain[i] == '%' && i + 2 < plain.length && isHex(plain[i + 1]) && isHex(plain[i + 2])) {
                bytes.write(HexFormat.fromHexDigits(new String(plain, i + 1, 2, StandardCharsets.US_ASCII)));
                i += 2;
            } else if (plain[i] == '%') {
                return Optional.empty(); // java.net.URI refuses a malformed escape; a caller that skipped it gets no path
            } else {
                bytes.write(plain[i]);
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static boolean isHex(byte b) {
        return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F';
    }
}
