package dev.omcp.adapters.storage.audit;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for requests signed in the {@code Authorization} header, with the JDK's
 * HMAC-SHA256 and SHA-256: canonical request, string to sign, derived signing key, signature.
 * Checked against AWS's published test suite and the S3 documentation's examples.
 */
final class SigV4Signer {
    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final char[] UPPER_HEX = "0123456789ABCDEF".toCharArray();

    /** Every intermediate of one signature, so each step can be checked. */
    record Signature(String canonicalRequest, String stringToSign, String signedHeaders, String signature, String authorization) {}

    private final String accessKeyId;
    private final byte[] secret;
    private final String region;
    private final String service;

    SigV4Signer(String accessKeyId, String secretAccessKey, String region, String service) {
        this.accessKeyId = Objects.requireNonNull(accessKeyId, "accessKeyId");
        this.secret = ("AWS4" + Objects.requireNonNull(secretAccessKey, "secretAccessKey")).getBytes(StandardCharsets.UTF_8);
        this.region = Objects.requireNonNull(region, "region");
        this.service = Objects.requireNonNull(service, "service");
    }

    /** {@code yyyyMMdd'T'HHmmss'Z'}, the form of {@code x-amz-date}. */
    static String amzDate(Instant at) {
        return AMZ_DATE.format(at);
    }

    /**
     * Signs a request.
     *
     * @param method HTTP method
     * @param canonicalUri the path, already URI-encoded the way the service expects (see {@link #encodePath})
     * @param canonicalQuery the canonical query string (see {@link #canonicalQuery}); empty when none
     * @param headers the headers to sign, by name in any case; must include {@code host} and {@code x-amz-date}
     * @param payloadHash hex SHA-256 of the body (or {@code UNSIGNED-PAYLOAD})
     * @param at the time in {@code x-amz-date}
     */
    Signature sign(String method, String canonicalUri, String canonicalQuery, Map<String, String> headers,
            String payloadHash, Instant at) {
        SortedMap<String, String> canonicalHeaders = new TreeMap<>();
        headers.forEach((name, value) -> canonicalHeaders.put(name.toLowerCase(java.util.Locale.ROOT), value.strip().replaceAll(" +", " ")));
        if (!canonicalHeaders.containsKey("host") || !canonicalHeaders.containsKey("x-amz-date")) {
            throw new IllegalArgumentException("a SigV4 request must sign the host and x-amz-date headers");
        }
        String signedHeaders = String.join(";", canonicalHeaders.keySet());
        String headerBlock = canonicalHeaders.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue() + "\n")
                .collect(Collectors.joining());
        String canonicalRequest = method + "\n" + canonicalUri + "\n" + canonicalQuery + "\n" + headerBlock + "\n"
                + signedHeaders + "\n" + payloadHash;
        String date = amzDate(at).substring(0, 8);
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String stringToSign = ALGORITHM + "\n" + amzDate(at) + "\n" + scope + "\n"
                + sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8));
        byte[] key = hmac(hmac(hmac(hmac(secret, date), region), service), "aws4_request");
        String signature = HexFormat.of().formatHex(hmac(key, stringToSign));
        String authorization = ALGORITHM + " Credential=" + accessKeyId + "/" + scope + ", SignedHeaders=" + signedHeaders
                + ", Signature=" + signature;
        return new Signature(canonicalRequest, stringToSign, signedHeaders, signature, authorization);
    }

    /**
     * Encodes a path for the canonical request the way S3 expects: every byte but the RFC 3986
     * unreserved characters percent-encoded (upper-case hex), slashes kept, no double encoding.
     */
    static String encodePath(String path) {
        return uriEncode(path, true);
    }

    /** The canonical query string: names and values encoded, sorted by encoded name then value. */
    static String canonicalQuery(Map<String, String> parameters) {
        SortedMap<String, String> sorted = new TreeMap<>();
        parameters.forEach((name, value) -> sorted.put(uriEncode(name, false), uriEncode(value, false)));
        return sorted.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("&"));
    }

    static String uriEncode(String text, boolean keepSlash) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                    || c == '~' || keepSlash && c == '/') {
                out.append(c);
            } else {
                out.append('%').append(UPPER_HEX[(b >> 4) & 0xf]).append(UPPER_HEX[b & 0xf]);
            }
        }
        return out.toString();
    }

    static String sha256Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256, which every Java platform must provide", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable, which every Java platform must provide", e);
        }
    }

    @Override
    public String toString() {
        return "SigV4Signer[" + region + "/" + service + ", secret hidden]";
    }
}
