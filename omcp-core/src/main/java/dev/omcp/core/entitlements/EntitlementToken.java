package dev.omcp.core.entitlements;

import dev.omcp.ports.entitlements.SignatureCheck;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads and verifies an entitlement token: {@code <payload>.<signature>}, both base64url (padding
 * optional), the payload the RFC 8785 canonical JSON {@code {sub, features[], iat, exp}} ({@code iat}
 * and {@code exp} in seconds since the epoch), the signature the Ed25519 signature of the payload
 * part's ASCII bytes as they appear in the token (as JWS signs its first part). The validity window
 * is not judged here: a token is read once, and its window is checked on every use
 * ({@link TokenEntitlements}). Reasons never quote the token.
 */
public final class EntitlementToken {
    /** Longer than any real token; a longer value is refused before it is decoded. */
    static final int MAX_LENGTH = 16 * 1024;
    private static final Pattern BASE64URL = Pattern.compile("[A-Za-z0-9_-]+={0,2}");
    private static final Pattern FEATURE = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    private EntitlementToken() {}

    /** What a token grants. */
    public record Claims(String sub, List<String> features, Instant issuedAt, Instant expiresAt) {
        public Claims {
            features = List.copyOf(features);
        }
    }

    /** The outcome of {@link #verify}. */
    public sealed interface Verification {
        /** The token is well formed and signed by the key's holder. */
        record Verified(Claims claims) implements Verification {}

        /** The token cannot be used; {@code reason} says why, without quoting it. */
        record Refused(String reason) implements Verification {}
    }

    /** Checks the token's form and signature against {@code key}. */
    public static Verification verify(String token, SignatureCheck key) {
        String trimmed = token.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_LENGTH) {
            return refused("bad format: it is empty or longer than " + MAX_LENGTH + " characters");
        }
        int dot = trimmed.indexOf('.');
        if (dot < 0 || dot != trimmed.lastIndexOf('.')) {
            return refused("bad format: expected two base64url parts joined by one dot (payload.signature)");
        }
        String payloadPart = trimmed.substring(0, dot);
        String signaturePart = trimmed.substring(dot + 1);
        if (!BASE64URL.matcher(payloadPart).matches() || !BASE64URL.matcher(signaturePart).matches()) {
            return refused("bad format: a part is not base64url (A-Z a-z 0-9 - _)");
        }
        byte[] payload;
        byte[] signature;
        try {
            payload = Base64.getUrlDecoder().decode(payloadPart);
            signature = Base64.getUrlDecoder().decode(signaturePart);
        } catch (IllegalArgumentException e) {
            return refused("bad format: a part does not decode as base64url");
        }
        // the signature first: nothing an unsigned payload says is worth reading
        if (!key.verifies(payloadPart.getBytes(StandardCharsets.US_ASCII), signature)) {
            return refused("bad signature: it was not signed by the key of OMCP_ENTITLEMENT_PUBKEY, or it was changed after signing");
        }
        return claims(payload).<Verification>map(Verification.Verified::new)
                .orElseGet(() -> refused("bad format: the payload is not a JSON object with sub (string), features (array of"
                        + " feature names), iat and exp (integer seconds since the epoch, iat before exp)"));
    }

    private static Optional<Claims> claims(byte[] payload) {
        JsonObject object;
        try (JsonReader reader = Jsonp.reader(new String(payload, StandardCharsets.UTF_8))) {
            JsonValue value = reader.readValue();
            if (!(value instanceof JsonObject read)) {
                return Optional.empty();
            }
            object = read;
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
        if (!(object.get("sub") instanceof JsonString sub) || !(object.get("features") instanceof JsonArray features)
                || !(object.get("iat") instanceof JsonNumber iat) || !(object.get("exp") instanceof JsonNumber exp)
                || !iat.isIntegral() || !exp.isIntegral()) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (JsonValue feature : features) {
            if (!(feature instanceof JsonString name) || !FEATURE.matcher(name.getString()).matches()) {
                return Optional.empty();
            }
            names.add(name.getString());
        }
        try {
            Instant issued = Instant.ofEpochSecond(iat.longValueExact());
            Instant expires = Instant.ofEpochSecond(exp.longValueExact());
            if (!issued.isBefore(expires)) {
                return Optional.empty();
            }
            return Optional.of(new Claims(sub.getString(), names, issued, expires));
        } catch (ArithmeticException | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }

    private static Verification refused(String reason) {
        return new Verification.Refused(reason);
    }
}
