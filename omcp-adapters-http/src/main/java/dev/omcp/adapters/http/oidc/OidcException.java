package dev.omcp.adapters.http.oidc;

/** An OIDC login step failed; the message is safe to show (no tokens, codes or secrets). */
public final class OidcException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean providerUnavailable;

    OidcException(String message, boolean providerUnavailable) {
        super(message);
        this.providerUnavailable = providerUnavailable;
    }

    OidcException(String message, boolean providerUnavailable, Throwable cause) {
        super(message, cause);
        this.providerUnavailable = providerUnavailable;
    }

    /** Whether the provider could not be reached (502), rather than refusing or sending something invalid (401). */
    public boolean providerUnavailable() {
        return providerUnavailable;
    }
}
