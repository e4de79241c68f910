package dev.omcp.adapters.http.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.auth.SessionClaims;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code omcp_session} cookie (spec 2.6, 5.2 rule 4): JSON claims {@code {sub, name, roles,
 * iat, exp, sid, tenant?}} signed with HMAC-SHA256 under {@code OMCP_SESSION_SECRET}; attributes
 * {@code HttpOnly}, {@code SameSite=Lax}, {@code Path=/}, {@code Max-Age} of the lifetime, and
 * {@code Secure} when the request came over HTTPS. Rotating the secret voids every session.
 *
 * <p>A cookie is issued only when it will verify whole: its value fits {@link #MAX_VALUE} (so name
 * and value stay within the 4096 bytes browsers keep of a cookie, and within what
 * {@link SignedValue} accepts) and it carries at most {@link #MAX_ROLES} roles, the most
 * {@link #decode} reads. Claims beyond either bound are refused with a {@link Issue.TooLarge} that
 * says which part is too long, never issued as a cookie that every later request would find
 * invalid, nor with roles cut off.
 */
public final class SessionCookies {
    /** The cookie name. */
    public static final String NAME = "omcp_session";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Most roles a session carries. */
    public static final int MAX_ROLES = 64;
    /** Longest cookie value issued: {@code omcp_session=} and the value fit {@link SignedValue#MAX_LENGTH}. */
    public static final int MAX_VALUE = SignedValue.MAX_LENGTH - NAME.length() - 1;

    private final SignedValue signer;

    /** @param secret the session secret, at least 32 bytes */
    public SessionCookies(byte[] secret) {
        this.signer = new SignedValue(secret);
    }

    /** A {@code Set-Cookie} value that stores a session, or why the session cannot be stored. */
    public sealed interface Issue {
        /** @param setCookie the {@code Set-Cookie} header value */
        record Issued(String setCookie) implements Issue {}

        /** @param problem what is too long and what to do, naming no value of the claims */
        record TooLarge(String problem) implements Issue {}
    }

    /**
     * The cookie value for {@code claims}.
     *
     * @throws IllegalArgumentException when the claims exceed a bound of the cookie; {@link #issue}
     *     answers that case as a result
     */
    public String encode(SessionClaims claims) {
        Optional<String> problem = problem(claims);
        if (problem.isPresent()) {
            throw new IllegalArgumentException(problem.get());
        }
        return sign(claims);
    }

    /** Why {@code claims} cannot travel in a cookie that verifies whole; empty when they can. */
    public Optional<String> problem(SessionClaims claims) {
        if (claims.roles().size() > MAX_ROLES) {
            return Optional.of("this account holds " + claims.roles().size() + " roles and a session carries at most " + MAX_ROLES
                    + "; ask the operator to give it at most " + MAX_ROLES + " roles");
        }
        int length = sign(claims).length();
        if (length <= MAX_VALUE) {
            return Optional.empty();
        }
        // Each part as it is written in the cookie: JSON-escaped, UTF-8, then base64url (4 characters per 3 bytes).
        Map<String, Integer> parts = new LinkedHashMap<>();
        parts.put("display name", cookieLength(claims.name()));
        parts.put("tenant", cookieLength(claims.tenant()));
        parts.put("role names", cookieLength(claims.roles()));
        parts.put("subject", cookieLength(claims.sub()));
        String longest = parts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        StringBuilder sizes = new StringBuilder();
        parts.forEach((part, size) -> sizes.append(sizes.isEmpty() ? "" : ", ").append(part).append(' ').append(size));
        String fix = longest.equals("role names") ? "shorten the role names or give the account fewer roles" : "shorten the " + longest;
        return Optional.of("this account's session does not fit in the session cookie: it would take " + length
                + " characters, at most " + MAX_VALUE + " fit (" + sizes + "; an ASCII character takes about 1.3, others up "
                + "to 6, control characters 8); ask the operator to " + fix);
    }

    /**
     * The {@code Set-Cookie} value that stores a session, or {@link Issue.TooLarge} when the claims
     * exceed a bound of the cookie (then nothing should be set).
     */
    public Issue issue(SessionClaims claims, Duration lifetime, boolean secure) {
        Optional<String> problem = problem(claims);
        return problem.<Issue>map(Issue.TooLarge::new).orElseGet(() -> new Issue.Issued(NAME + "=" + sign(claims)
                + "; Path=/; Max-Age=" + lifetime.toSeconds() + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")));
    }

    private static int cookieLength(Object value) {
        try {
            return (MAPPER.writeValueAsBytes(value).length * 4 + 2) / 3;
        } catch (IOException e) {
            throw new IllegalStateException("session claims could not be serialized", e);
        }
    }

    private String sign(SessionClaims claims) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("sub", claims.sub());
        payload.put("name", claims.name());
        payload.put("roles", claims.roles());
        payload.put("iat", claims.iat());
        payload.put("exp", claims.exp());
        payload.put("sid", claims.sid());
        if (!claims.tenant().isEmpty()) {
            payload.put("tenant", claims.tenant());
        }
        try {
            return signer.sign(MAPPER.writeValueAsBytes(payload));
        } catch (IOException e) {
            throw new IllegalStateException("session claims could not be serialized", e);
        }
    }

    /** The claims of a correctly signed, well-formed cookie value; empty otherwise. */
    public Optional<SessionClaims> decode(String value) {
        Optional<byte[]> payload = signer.verify(value);
        if (payload.isEmpty()) {
            return Optional.empty();
        }
        try {
            JsonNode json = MAPPER.readTree(new String(payload.get(), StandardCharsets.UTF_8));
            if (json == null || !json.isObject() || !json.path("sub").isTextual() || !json.path("sid").isTextual()
                    || !json.path("iat").canConvertToLong() || !json.path("exp").canConvertToLong()) {
                return Optional.empty();
            }
            List<String> roles = new ArrayList<>();
            JsonNode rolesNode = json.path("roles");
            if (rolesNode.isArray()) {
                for (JsonNode role : rolesNode) {
                    if (role.isTextual() && roles.size() < MAX_ROLES) {
                        roles.add(role.asText());
                    }
                }
            }
            String name = json.path("name").isTextual() ? json.path("name").asText() : json.path("sub").asText();
            String tenant = json.path("tenant").isTextual() ? json.path("tenant").asText() : "";
            return Optional.of(new SessionClaims(json.path("sub").asText(), name, roles, json.path("iat").asLong(),
                    json.path("exp").asLong(), json.path("sid").asText(), tenant));
        } catch (IOException | IllegalArgumentException e) {
            // Signed by us but unreadable: only possible with a leaked secret or a bug; never trusted.
            return Optional.empty();
        }
    }

    /** The {@code Set-Cookie} value that removes the session cookie. */
    public static String clearCookie(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }
}
