package dev.omcp.adapters.http.oidc;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the OIDC client needs ({@code OMCP_OIDC_*}).
 *
 * @param issuer the provider's issuer URL, exactly as its discovery document names it
 * @param clientId the client id registered at the provider
 * @param clientSecret the client secret; empty for a public client (PKCE only)
 * @param redirectUri the callback URL registered at the provider, sent byte for byte
 * @param scopes requested scopes; {@code openid} is always included
 * @param timeout connect and request timeout of every call to the provider
 */
public record OidcSettings(URI issuer, String clientId, String clientSecret, URI redirectUri, List<String> scopes, Duration timeout) {
    public OidcSettings {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientSecret, "clientSecret");
        Objects.requireNonNull(redirectUri, "redirectUri");
        scopes = List.copyOf(scopes);
        Objects.requireNonNull(timeout, "timeout");
        if (!scopes.contains("openid")) {
            throw new IllegalArgumentException("OIDC scopes must include openid");
        }
    }

    @Override
    public String toString() {
        return "OidcSettings[issuer=" + issuer + ", clientId=" + clientId + ", secret " + (clientSecret.isEmpty() ? "none" : "hidden") + "]";
    }
}
