package dev.omcp.ports.auth;

/** What a revocation names (spec 2.8). */
public enum RevocationTarget {
    /** One session, by its {@code sid}. */
    SID,
    /** Every session of a subject issued up to the revocation; later logins are unaffected. */
    SUB
}
