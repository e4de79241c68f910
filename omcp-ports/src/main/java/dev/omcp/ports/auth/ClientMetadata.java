package dev.omcp.ports.auth;

import java.util.List;
import java.util.Objects;

/**
 * The client metadata of an RFC 7591 registration request, as far as the gateway keeps it.
 *
 * @param redirectUris {@code redirect_uris}
 * @param clientName {@code client_name}; empty when absent
 * @param tokenEndpointAuthMethod {@code token_endpoint_auth_method}: {@code none},
 *     {@code client_secret_basic} or {@code client_secret_post}
 * @param grantTypes {@code grant_types}
 * @param responseTypes {@code response_types}
 * @param scope {@code scope}; empty when absent
 */
public record ClientMetadata(
        List<String> redirectUris,
        String clientName,
        String tokenEndpointAuthMethod,
        List<String> grantTypes,
        List<String> responseTypes,
        String scope) {
    public ClientMetadata {
        redirectUris = List.copyOf(redirectUris);
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(tokenEndpointAuthMethod, "tokenEndpointAuthMethod");
        grantTypes = List.copyOf(grantTypes);
        responseTypes = List.copyOf(responseTypes);
        Objects.requireNonNull(scope, "scope");
    }
}
