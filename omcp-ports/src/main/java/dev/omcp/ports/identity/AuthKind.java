package dev.omcp.ports.identity;

/** How a caller proved who it is. */
public enum AuthKind {
    /** No credential; the default single-user deployment (spec 1.6). */
    ANONYMOUS,
    /** A named bearer token from {@code OMCP_API_KEYS} (spec 5.4). */
    API_KEY,
    /** A signed {@code omcp_session} cookie from a basic or OIDC login (spec 2.6). */
    SESSION
}
