package dev.omcp.adapters.http.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.SessionClaims;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionCookiesTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef-secret".getBytes(StandardCharsets.UTF_8);
    private final SessionCookies cookies = new SessionCookies(SECRET);
    private final SessionClaims claims = new SessionClaims("alice", "Alice", List.of("operator"), 1_700_000_000L, 1_700_043_200L,
            "sid-123", "acme");

    @Test
    void roundTrip_payloadIsBase64urlJsonDotBase64urlHmac() {
        String value = cookies.encode(claims);
        assertThat(value).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}");
        String payload = new String(Base64.getUrlDecoder().decode(value.substring(0, value.indexOf('.'))), StandardCharsets.UTF_8);
        assertThat(payload).isEqualTo(
                "{\"sub\":\"alice\",\"name\":\"Alice\",\"roles\":[\"operator\"],\"iat\":1700000000,\"exp\":1700043200,\"sid\":\"sid-123\",\"tenant\":\"acme\"}");
        assertThat(cookies.decode(value)).contains(claims);
    }

    @Test
    void noTenantMeansNoTenantField() {
        SessionClaims plain = new SessionClaims("bob", "Bob", List.of(), 1, 2, "s", "");
        String value = cookies.encode(plain);
        String payload = new String(Base64.getUrlDecoder().decode(value.substring(0, value.indexOf('.'))), StandardCharsets.UTF_8);
        assertThat(payload).doesNotContain("tenant");
        assertThat(cookies.decode(value)).contains(plain);
    }

    @Test
    void aTamperedPayloadOrSignatureIsRejected() {
        String value = cookies.encode(claims);
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"sub\":\"alice\",\"roles\":[\"admin\"],\"iat\":1,\"exp\":9999999999,\"sid\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(cookies.decode(forged + value.substring(value.indexOf('.')))).isEmpty();
        char last = value.charAt(value.length() - 1);
        assertThat(cookies.decode(value.substring(0, value.length() - 1) + (last == 'A' ? 'B' : 'A'))).isEmpty();
        assertThat(cookies.decode("")).isEmpty();
        assertThat(cookies.decode("no-dot")).isEmpty();
        assertThat(cookies.decode("a.b.c")).isEmpty();
        assertThat(cookies.decode("x".repeat(5000))).isEmpty();
    }

    @Test
    void anotherSecretInvalidatesEveryCookie_spec34SecretRotation() {
        String value = cookies.encode(claims);
        SessionCookies rotated = new SessionCookies("another-secret-of-at-least-32-characters!".getBytes(StandardCharsets.UTF_8));
        assertThat(rotated.decode(value)).isEmpty();
    }

    @Test
    void aSignedPayloadThatIsNotSessionClaimsIsRejected() {
        SignedValue signer = new SignedValue(SECRET);
        assertThat(cookies.decode(signer.sign("[1,2]".getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(cookies.decode(signer.sign("{\"sub\":\"a\"}".getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(cookies.decode(signer.sign("{\"sub\":\"a\",\"sid\":\"s\",\"iat\":5,\"exp\":4}".getBytes(StandardCharsets.UTF_8)))).isEmpty();
    }

    @Test
    void valuesSignedForAnotherPurposeDoNotVerify() {
        SignedValue state = new SignedValue(SignedValue.derive(SECRET, "omcp oidc login state v1"));
        String stateValue = state.sign(cookies.encode(claims).getBytes(StandardCharsets.UTF_8));
        assertThat(cookies.decode(stateValue)).isEmpty();
    }

    @Test
    void cookieAttributes_spec52Rule4() {
        assertThat(((SessionCookies.Issue.Issued) cookies.issue(claims, Duration.ofHours(12), false)).setCookie())
                .startsWith("omcp_session=").endsWith("; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax");
        assertThat(((SessionCookies.Issue.Issued) cookies.issue(claims, Duration.ofHours(12), true)).setCookie()).endsWith("; HttpOnly; SameSite=Lax; Secure");
        assertThat(SessionCookies.clearCookie(false)).isEqualTo("omcp_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    }

    @Test
    void claimsBeyondTheCookiesBounds_areNeverEncoded_andTheProblemNamesTheLongestPart() {
        SessionClaims longTenant = new SessionClaims("alice", "Alice", List.of("operator"), 1, 2, "s", "t".repeat(4000));
        assertThat(cookies.problem(longTenant)).hasValueSatisfying(problem -> assertThat(problem)
                .contains("at most " + SessionCookies.MAX_VALUE).contains("tenant 5336").contains("shorten the tenant")
                .doesNotContain("ttt"));
        assertThat(cookies.issue(longTenant, Duration.ofHours(12), false)).isInstanceOf(SessionCookies.Issue.TooLarge.class);
        assertThatThrownBy(() -> cookies.encode(longTenant)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorten the tenant");

        List<String> manyRoles = java.util.stream.IntStream.range(0, 300).mapToObj(i -> "r" + i).toList();
        SessionClaims roles = new SessionClaims("alice", "Alice", manyRoles.subList(0, 64), 1, 2, "s", "");
        assertThat(cookies.problem(roles)).isEmpty();
        assertThat(cookies.decode(cookies.encode(roles))).contains(roles);
        assertThat(cookies.problem(new SessionClaims("alice", "Alice", manyRoles.subList(0, 65), 1, 2, "s", "")))
                .hasValueSatisfying(problem -> assertThat(problem).contains("holds 65 roles"));
    }
}
