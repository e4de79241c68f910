package dev.omcp.ports.auth;

/** Driving port: basic-mode login with a username and password (spec 5.2, 3.3). */
public interface PasswordLogin {

    /**
     * Tries one login. The per-address limit and the account lock are checked before any password
     * hash is computed; an unknown username costs one verification against a dummy hash so its
     * timing matches a known one.
     *
     * @param username the username as typed, at most 256 characters
     * @param password the password, at most 1024 characters
     * @param clientIp the client address after the trusted-proxy rules
     */
    LoginResult login(String username, String password, String clientIp);

    /**
     * Whether {@code username} names a user now. Only for the audit of a refused login: the
     * username field may hold a password typed into the wrong field, and the audit log cannot be
     * edited afterwards, so a name that is no user is not recorded. Never tell the client.
     *
     * @param username the username as typed, at most 256 characters
     */
    boolean isKnownUser(String username);
}
