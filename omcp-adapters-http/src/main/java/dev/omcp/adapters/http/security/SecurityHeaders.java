package dev.omcp.adapters.http.security;

import io.javalin.http.Context;
import java.util.function.BiConsumer;

/**
 * Browser hardening headers on every response, refusals and the container's own errors included
 * (spec 5.9): the enforced content security policy, which still allows the inline handlers of the UI
 * but forbids framing ({@code frame-ancestors 'none'}), and with {@code OMCP_CSP_STRICT_REPORT=true}
 * the strict policy in report-only mode, so an operator sees what a strict policy would break before
 * it is enforced. Also {@code nosniff} and {@code Referrer-Policy: no-referrer}.
 */
public final class SecurityHeaders {
    /** The enforced policy. */
    public static final String ENFORCED = "default-src 'self'; script-src 'self' 'unsafe-inline'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
            + "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
    /** The strict policy, reported only. */
    public static final String STRICT_REPORT_ONLY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'; report-uri " + CspViolationReports.PATH + "; report-to csp";

    private final boolean strictReport;

    public SecurityHeaders(boolean strictReport) {
        this.strictReport = strictReport;
    }

    /** The defaults: enforced policy, no strict report. */
    public static SecurityHeaders standard() {
        return new SecurityHeaders(false);
    }

    /** Adds the headers to a response. */
    public void apply(Context ctx) {
        forEach(ctx::header);
    }

    /**
     * Hands each header to {@code header}, name then value: also for answers written outside a
     * route's context (the container's own errors), which must carry them as well.
     */
    public void forEach(BiConsumer<String, String> header) {
        header.accept("Content-Security-Policy", ENFORCED);
        header.accept("X-Frame-Options", "DENY");
        header.accept("X-Content-Type-Options", "nosniff");
        header.accept("Referrer-Policy", "no-referrer");
        if (strictReport) {
            header.accept("Content-Security-Policy-Report-Only", STRICT_REPORT_ONLY);
            header.accept("Reporting-Endpoints", "csp=\"" + CspViolationReports.PATH + "\"");
        }
    }
}
