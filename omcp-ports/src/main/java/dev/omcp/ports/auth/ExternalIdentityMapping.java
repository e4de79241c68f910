package dev.omcp.ports.auth;

import java.util.Map;

/**
 * Driving port: maps the verified ID-token claims of an OpenID provider to a session subject:
 * roles from the roles claim through the role map, tenant from the tenant claim (spec 5.1).
 */
public interface ExternalIdentityMapping {

    /**
     * Maps claims. Values are JSON values as plain Java: {@code String}, {@code Number},
     * {@code Boolean}, {@code List} and {@code Map}.
     */
    MappedIdentity map(Map<String, Object> claims);
}
