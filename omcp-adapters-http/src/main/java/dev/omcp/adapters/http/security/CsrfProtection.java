package dev.omcp.adapters.http.security;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * CSRF protection of mutating management requests (spec 4.3, DECISIONS.md). The page reads the
 * token from a cookie and echoes it in {@code X-CSRF-Token}; another site can make a browser send
 * the cookie but cannot read it, so it cannot echo it.
 *
 * <p>With a login session the token is {@code HMAC-SHA256(key, sid)} under a key derived from the
 * session secret, and the header is compared with that value, not with the cookie: a token planted
 * as a cookie by a sibling subdomain, copied from another session or kept from before a re-login
 * does not match. Without a session (anonymous mode, before login) there is no credential to ride,
 * and the token is a random double-submit value.
 *
 * <p>Over HTTPS the cookie is {@code __Host-omcp-csrf}: browsers accept that name only with
 * {@code Secure}, {@code Path=/} and no {@code Domain}, so a sibling subdomain or a plain-HTTP page
 * cannot set it, and a plain {@code omcp-csrf} cookie is then ignored. Plain HTTP (the loopback
 * demo) cannot use the prefix and keeps {@code omcp-csrf}.
 *
 * <p>A request carrying {@code Authorization: Bearer} is not a browser form and skips the check
 * unless {@code OMCP_CSRF_BYPASS_BEARER=false}; the caller must then authenticate it by that
 * credential alone, never by a cookie that came along ({@link #bypassedByBearer}).
 */
public final class CsrfProtection {
    /** The cookie name over plain HTTP. */
    public static final String COOKIE = "omcp-csrf";
    /** The cookie name over HTTPS. */
    public static final String SECURE_COOKIE = "__Host-" + COOKIE;
    /** The request header that echoes the token. */
    public static final String HEADER = "X-CSRF-Token";
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{32,128}");
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final boolean bypassBearer;
    private final SecretKeySpec key;
    private final SecureRandom random;

    /**
     * @param sessionSecret the secret that signs session cookies; the token key is derived from it,
     *     so rotating the secret voids every token with every session
     */
    public CsrfProtection(boolean bypassBearer, byte[] sessionSecret, SecureRandom random) {
        if (sessionSecret.length < 32) {
            throw new IllegalArgumentException("the session secret needs at least 32 bytes");
        }
        this.bypassBearer = bypassBearer;
        this.key = new SecretKeySpec(hmac(new SecretKeySpec(sessionSecret, "HmacSHA256"), "omcp csrf token v1"), "HmacSHA256");
        this.random = random;
    }

    /** The cookie that carries the token: {@code __Host-omcp-csrf} over HTTPS, else {@code omcp-csrf}. */
    public static String cookieName(boolean secure) {
        return secure ? SECURE_COOKIE : COOKIE;
    }

    /**
     * Whether the request skips the check because it carries {@code Authorization: Bearer} (spec
     * 4.3). Such a request must not be run as the session of a cookie it also carries.
     */
    public boolean bypassedByBearer(Context ctx) {
        return bypassBearer && carriesBearer(ctx.header("Authorization"));
    }

    /**
     * Sets the token cookie when the request lacks the right one: the session's token when there is
     * a session, else a fresh random token unless it already carries a well-formed one.
     */
    public void ensureCookie(Context ctx, Optional<String> sessionId, boolean secure) {
        String existing = ctx.cookie(cookieName(secure));
        if (sessionId.isPresent()) {
            String expected = sessionToken(sessionId.get());
            if (existing == null || !constantTimeEquals(existing, expected)) {
                setCookie(ctx, expected, secure);
            }
        } else if (existing == null || !TOKEN.matcher(existing).matches()) {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            setCookie(ctx, ENCODER.encodeToString(bytes), secure);
        }
    }

    /** Hands the page the token of a session just opened, so its next change works without another read. */
    public void issueForSession(Context ctx, String sessionId, boolean secure) {
        setCookie(ctx, sessionToken(sessionId), secure);
    }

    /** Removes the token cookie, with the session it belonged to. */
    public void clearCookie(Context ctx, boolean secure) {
        ctx.res().addHeader("Set-Cookie", cookieName(secure) + "=; Path=/; Max-Age=0; SameSite=Lax" + (secure ? "; Secure" : ""));
    }

    /**
     * Whether a mutating request proves it comes from a page of this gateway: bypassed by a bearer
     * header, else the header must hold the session's token, or without a session the cookie's value.
     */
    public boolean accepts(Context ctx, Optional<String> sessionId, boolean secure) {
        if (bypassedByBearer(ctx)) {
            return true;
        }
        String header = ctx.header(HEADER);
        if (header == null) {
            return false;
        }
        if (sessionId.isPresent()) {
            return constantTimeEquals(header.trim(), sessionToken(sessionId.get()));
        }
        String cookie = ctx.cookie(cookieName(secure));
        return cookie != null && TOKEN.matcher(cookie).matches() && constantTimeEquals(header.trim(), cookie);
    }

    /** What a refused request must do, naming the cookie this connection uses. */
    public static String refusal(boolean secure) {
        return "this request changes state and needs the CSRF token of its session: echo the value of the "
                + cookieName(secure) + " cookie (set again at every login) in the " + HEADER
                + " header; a token of another session or from before the last login is refused";
    }

    private String sessionToken(String sessionId) {
        return ENCODER.encodeToString(hmac(key, "sid:" + sessionId));
    }

    private static void setCookie(Context ctx, String token, boolean secure) {
        // Not HttpOnly: the page must read it to echo it. No Domain, Path=/: required by __Host-.
        ctx.res().addHeader("Set-Cookie", cookieName(secure) + "=" + token + "; Path=/; SameSite=Lax" + (secure ? "; Secure" : ""));
    }

    private static boolean constantTimeEquals(String presented, String expected) {
        return MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(SecretKeySpec key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK provides HmacSHA256", e);
        }
    }

    private static boolean carriesBearer(String authorization) {
        return authorization != null && authorization.length() > 7
                && authorization.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ");
    }
}
