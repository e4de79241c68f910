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
}
