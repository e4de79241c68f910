package dev.omcp.adapters.http.security;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Double-submit CSRF protection (spec 4.3, DECISIONS.md): the gateway sets a random
 * {@code omcp-csrf} cookie readable by the page; a mutating request must echo it in
 * {@code X-CSRF-Token}. Another site can make a browser send the cookie but cannot read it, so it
 * cannot echo it. A request carrying {@code Authorization: Bearer} is not a browser form and is
 * exempt unless {@code OMCP_CSRF_BYPASS_BEARER=false}.
 */
public final class CsrfProtection {
    /** The cookie name. */
    public static final String COOKIE = "omcp-csrf";
    /** The request header that echoes the cookie. */
    public static final String HEADER = "X-CSRF-Token";
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{32,128}");

    private final boolean bypassBearer;
    private final SecureRandom random;

    public CsrfProtection(boolean bypassBearer, SecureRandom random) {
        this.bypassBearer = bypassBearer;
        this.random = random;
    }

    /** Sets a fresh token cookie when the request carries none (or a malformed one). */
    public void ensureCookie(Context ctx, boolean secure) {
        String existing = ctx.cookie(COOKIE);
        if (existing != null && TOKEN.matcher(existing).matches()) {
            return;
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        // Not HttpOnly: the page must read it to echo it.
        ctx.res().addHeader("Set-Cookie", COOKIE + "=" + token + "; Path=/; SameSite=Lax" + (secure ? "; Secure" : ""));
    }

    /** Whether a mutating request proves it comes from a page of this gateway. */
    public boolean accepts(Context ctx) {
        if (bypassBearer && carriesBearer(ctx.header("Authorization"))) {
            return true;
        }
        String cookie = ctx.cookie(COOKIE);
        String header = ctx.header(HEADER);
        if (cookie == null || header == null || !TOKEN.matcher(cookie).matches()) {
            return false;
        }
        return MessageDigest.isEqual(cookie.getBytes(StandardCharsets.US_ASCII), header.trim().getBytes(StandardCharsets.US_ASCII));
    }

    private static boolean carriesBearer(String authorization) {
        return authorization != null && authorization.length() > 7
                && authorization.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ");
    }
}
