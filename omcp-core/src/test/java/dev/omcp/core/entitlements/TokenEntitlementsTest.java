package dev.omcp.core.entitlements;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.entitlements.SignatureCheck;
import dev.omcp.testkit.time.ManualClock;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** DECISIONS.md "Entitlements", spec 5.6: the token's form, signature and window. */
class TokenEntitlementsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private final ManualClock clock = new ManualClock(NOW);
    private final KeyPair issuer = keys();
    private final KeyPair other = keys();

    @Test
    void goodToken_holdsItsFeatures_andNoOther() {
        TokenEntitlements held = TokenEntitlements.of(token(issuer, payload(NOW.minusSeconds(60), NOW.plusSeconds(3600))), check(issuer),
                clock);
        assertThat(held.holds(Entitlements.SCIM)).isTrue();
        assertThat(held.holds(Entitlements.INSPECT_ENFORCE)).isFalse();
        assertThat(held.missing(Entitlements.INSPECT_ENFORCE).orElseThrow()).contains("does not grant the feature inspect-enforce");
        assertThat(held.claims().orElseThrow().sub()).isEqualTo("acme");
    }

    @Test
    void tamperedPayload_isABadSignature() {
        String good = token(issuer, payload(NOW.minusSeconds(60), NOW.plusSeconds(3600)));
        String forged = B64.encodeToString(payload(NOW.minusSeconds(60), NOW.plusSeconds(3600)).replace("scim", "scim\",\"inspect-enforce")
                .getBytes(StandardCharsets.UTF_8)) + good.substring(good.indexOf('.'));
        assertThat(TokenEntitlements.of(forged, check(issuer), clock).missing(Entitlements.SCIM).orElseThrow())
                .contains("bad signature").doesNotContain(forged);
    }

    @Test
    void tokenOfAnotherKey_isABadSignature() {
        String token = token(other, payload(NOW.minusSeconds(60), NOW.plusSeconds(3600)));
        assertThat(TokenEntitlements.of(token, check(issuer), clock).missing(Entitlements.SCIM).orElseThrow()).contains("bad signature");
    }

    @Test
    void expiry_isJudgedWhenAsked_againstTheClock() {
        TokenEntitlements held = TokenEntitlements.of(token(issuer, payload(NOW.minusSeconds(60), NOW.plusSeconds(3600))), check(issuer),
                clock);
        assertThat(held.holds(Entitlements.SCIM)).isTrue();
        clock.advance(Duration.ofSeconds(3600));
        assertThat(held.missing(Entitlements.SCIM).orElseThrow()).contains("expired at 2026-03-01T11:00:00Z");
    }

    @Test
    void notYetValid_holdsNothingUntilIat() {
        TokenEntitlements held = TokenEntitlements.of(token(issuer, payload(NOW.plusSeconds(60), NOW.plusSeconds(3600))), check(issuer),
                clock);
        assertThat(held.missing(Entitlements.SCIM).orElseThrow()).contains("not yet valid");
        clock.advance(Duration.ofSeconds(60));
        assertThat(held.holds(Entitlements.SCIM)).isTrue();
    }

    @Test
    void garbage_isABadFormat_andNoReasonQuotesTheToken() {
        for (String garbage : new String[] {"", "no-dot", "a.b.c", "%%%.###", "e30.AAAA"}) {
            String reason = TokenEntitlements.of(garbage, check(issuer), clock).missing(Entitlements.SCIM).orElseThrow();
            assertThat(reason).containsAnyOf("bad format", "bad signature");
            if (garbage.length() > 3) {
                assertThat(reason).doesNotContain(garbage);
            }
        }
        // signed, but not the claims object
        String signedJunk = token(issuer, "[1,2]");
        assertThat(TokenEntitlements.of(signedJunk, check(issuer), clock).missing(Entitlements.SCIM).orElseThrow()).contains("bad format");
    }

    @Test
    void none_holdsNothing() {
        assertThat(Entitlements.none().holds(Entitlements.SCIM)).isFalse();
    }

    private static String payload(Instant iat, Instant exp) {
        return "{\"exp\":" + exp.getEpochSecond() + ",\"features\":[\"scim\"],\"iat\":" + iat.getEpochSecond() + ",\"sub\":\"acme\"}";
    }

    static String token(KeyPair keys, String payload) {
        String first = B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(keys.getPrivate());
            signer.update(first.getBytes(StandardCharsets.US_ASCII));
            return first + "." + B64.encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static SignatureCheck check(KeyPair keys) {
        PublicKey key = keys.getPublic();
        return (data, signature) -> {
            try {
                Signature verifier = Signature.getInstance("Ed25519");
                verifier.initVerify(key);
                verifier.update(data);
                return verifier.verify(signature);
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                return false;
            }
        };
    }

    static KeyPair keys() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
