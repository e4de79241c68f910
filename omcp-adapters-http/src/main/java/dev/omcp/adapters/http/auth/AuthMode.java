package dev.omcp.adapters.http.auth;

import java.util.Locale;

/** The management-plane authentication mode, {@code OMCP_AUTH} (spec 5.1). */
public enum AuthMode {
    /** Every {@code /api/*} request is accepted as the anonymous principal; no login. */
    ANONYMOUS,
    /** Signed cookie sessions after a password login against the users file. */
    BASIC,
    /** Signed cookie sessions after a login at an OpenID provider. */
    OIDC;

    /** The name used in settings, {@code /api/info} and 401 bodies. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
