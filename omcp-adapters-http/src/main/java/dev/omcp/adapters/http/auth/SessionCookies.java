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
 */
public final class SessionCookies {
    /** The cookie name. */
    public static final String NAME = "omcp_session";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MAX_ROLES = 64;

    private final SignedValue signer;

    /** @param secret the session secret, at least 32 bytes */
    public SessionCookies(byte[] secret) {
        this.signer = new SignedValue(secret);
    }

    /** The cookie value for {@code claims}. */
    public String encode(SessionClaims claims) {
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

    /** The {@code Set-Cookie} value that stores a session. */
    public String setCookie(SessionClaims claims, Duration lifetime, boolean secure) {
        return NAME + "=" + encode(claims) + "; Path=/; Max-Age=" + lifetime.toSeconds() + "; HttpOnly; SameSite=Lax"
                + (secure ? "; Secure" : "");
    }

    /** The {@code Set-Cookie} value that removes the session cookie. */
    public static String clearCookie(boolean secure) {
        return NAME + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }
}
