package dev.omcp.adapters.storage.plugins;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Why a remote hub file could not be fetched, in words an operator can act on. The network's own
 * messages are not quoted: they vary by JDK and platform, and a proxy's may carry more than a reason.
 * Only the kind of failure is named, from the exception's class and its causes.
 */
final class HubFetchFailure {
    /** What every "the hub cannot be reached" reason ends with. */
    static final String WHAT_TO_DO = "check that HUB_CATALOG_URL (or --from) names the hub and that it is reachable from this host, or "
            + "install from a copy of the hub's directory with omcp plugin install --from <dir>";

    private HubFetchFailure() {}

    /**
     * Why a connection could not be opened in time. The caller recognises the HTTP client's exception
     * for it: only the hub client may know the HTTP client (plugin loading uses no network).
     */
    static String connectTimedOut() {
        return "the connection timed out; " + WHAT_TO_DO;
    }

    /** Why the request failed before an answer, from the exception the HTTP client completed with. */
    static String of(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
                return "its host name does not resolve; " + WHAT_TO_DO;
            }
            if (t instanceof NoRouteToHostException) {
                return "there is no route to its host; " + WHAT_TO_DO;
            }
            if (t instanceof SSLHandshakeException) {
                return "the TLS handshake failed (the hub's certificate is not trusted by this JVM, has expired, or names another "
                        + "host); give the JVM the hub's CA (javax.net.ssl.trustStore in OMCP_JAVA_OPTS) or fix the hub's certificate";
            }
            if (t instanceof SSLException) {
                return "the TLS connection failed (is it an http:// hub reached as https://?); " + WHAT_TO_DO;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // the JDK's HTTP client reports a reset while it connects as a ConnectException too, caused by
            // the socket's own SocketException; a refusal's cause is no SocketException
            if (t instanceof SocketException && !(t instanceof ConnectException)) {
                return reset(t);
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return "the connection was refused (nothing listens at that address and port); " + WHAT_TO_DO;
            }
        }
        if (failure instanceof EOFException || failure instanceof IOException) {
            return reset(failure);
        }
        return "the request failed (" + failure.getClass().getSimpleName() + "); " + WHAT_TO_DO;
    }

    private static String reset(Throwable failure) {
        return "the hub closed or reset the connection before its answer was complete (" + failure.getClass().getSimpleName()
                + "); try again, and if it lasts, " + WHAT_TO_DO;
    }

    /** Why an answer other than 200 (and not a redirect) is no hub file. */
    static String ofStatus(int status) {
        if (status >= 500) {
            return "HTTP " + status + ", an error of the hub's server (or of a proxy in front of it); try again later, and if it lasts, "
                    + "tell whoever runs the hub, or install from a copy of its directory with --from <dir>";
        }
        if (status == 401 || status == 403 || status == 407) {
            return "HTTP " + status + ", access refused: the gateway sends no credentials to a hub; serve the catalog without "
                    + "authentication to this host, or install from a copy of its directory with --from <dir>";
        }
        if (status == 404 || status == 410) {
            return "HTTP " + status + ", not found: for the hub index, check that HUB_CATALOG_URL (or --from) names the hub's index.json "
                    + "or its directory; for another file, the hub lists a file it does not serve";
        }
        return "HTTP " + status;
    }
}
