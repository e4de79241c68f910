package dev.omcp.ports.auth;

/**
 * Driving port: RFC 7591 dynamic client registration at {@code POST /api/auth/oidc/register},
 * only when {@code OMCP_OIDC_DCR_ENABLED=true} (spec 4.3).
 */
public interface ClientRegistrar {

    /** Validates and stores a registration from {@code clientIp}. */
    RegistrationResult register(ClientMetadata metadata, String clientIp);
}
