package dev.omcp.adapters.http.oidc;

import java.util.Optional;

/**
 * The error an identity provider sends back to the callback instead of a code (RFC 6749 4.1.2.1:
 * {@code error} and {@code error_description}). Anyone can craft a callback URL, so the callback
 * reads these only after the login state matched, and even then shows and logs them only in a
 * bounded, printable form: letters, digits and {@code _ . -} for the code, the characters RFC 6749
 * allows in a description (printable ASCII without {@code "} and {@code \}) for the description.
 * Anything else becomes {@code ?}, so neither a line break nor a quote reaches a log line, and no
 * bidi control can make the text read differently from what it is.
 *
 * @param code the provider's error code, cleaned and at most {@link #MAX_CODE} characters
 * @param description its description, cleaned and at most {@link #MAX_DESCRIPTION} characters; empty when absent
 */
record ProviderDenial(String code, String description) {
    static final int MAX_CODE = 64;
    static final int MAX_DESCRIPTION = 200;

    /** The denial of a callback, from its raw {@code error} and {@code error_description} parameters. */
    static ProviderDenial of(String error, String errorDescription) {
        return new ProviderDenial(bounded(error.replaceAll("[^A-Za-z0-9_.-]", "?"), MAX_CODE),
                bounded(Optional.ofNullable(errorDescription).orElse("").replaceAll("[^\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]", "?"),
                        MAX_DESCRIPTION));
    }

    /** What the person who tried to log in reads. */
    String message() {
        return "the identity provider did not log you in (" + code + (description.isEmpty() ? "" : ": " + description)
                + "); start again at GET /api/auth/oidc/login";
    }

    private static String bounded(String clean, int max) {
        // the text is ASCII once cleaned (each other code point is one '?'), so a cut cannot split a character
        return clean.length() <= max ? clean : clean.substring(0, max - 3) + "...";
    }
}
