package dev.omcp.adapters.storage.redis;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Finds out which TLS alert a {@code rediss://} server sends, for the message of a start that failed.
 *
 * <p>With TLS 1.3 a server that wants a client certificate and gets none (or one it does not trust)
 * says so only after the client has finished its side of the handshake, in an alert the client reads
 * with the first answer. The Redis client writes its first command before reading anything, so it
 * sees a broken pipe, not the alert. This probe repeats the handshake on a socket of its own and
 * reads, so the alert, if any, surfaces as the JDK names it ("Received fatal alert:
 * certificate_required"); a server that accepted the handshake sends nothing, and the read times
 * out. Only the alert's protocol name is taken from the message.
 */
final class TlsAlertProbe {
    private static final Pattern RECEIVED_ALERT = Pattern.compile("Received fatal alert: ([a-z_]{1,40})");

    private TlsAlertProbe() {}

    /**
     * What the probe saw: the alert the server sent, if one surfaced, and whether the server closed the
     * connection during the handshake. The latter is how a refused client certificate shows under TLS
     * 1.3 when the server closes before the client has written its whole flight: the JDK then fails
     * on its write and never reads the alert.
     */
    record Outcome(Optional<String> alert, boolean closedDuringHandshake) {
        static final Outcome NOTHING = new Outcome(Optional.empty(), false);
    }

    /** Connects, shakes hands and reads once, within {@code timeoutMillis} for each step. */
    static Outcome probe(String host, int port, SSLSocketFactory factory, int timeoutMillis) {
        boolean connected = false;
        boolean handshakeDone = false;
        try (SSLSocket socket = (SSLSocket) factory.createSocket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            connected = true;
            socket.setSoTimeout(timeoutMillis);
            socket.startHandshake();
            handshakeDone = true;
            // read, not write: a write races the server's close and reports a broken pipe instead of the alert
            InputStream in = socket.getInputStream();
            in.read();
            return Outcome.NOTHING;
        } catch (SSLException e) {
            return new Outcome(receivedAlert(e), false);
        } catch (SocketException e) {
            // after connecting, a reset or a broken pipe: the server hung up on the handshake
            return new Outcome(Optional.empty(), connected && !handshakeDone);
        } catch (IOException | RuntimeException e) {
            // the probe only refines a message; a probe that fails otherwise has nothing to add to it
            return Outcome.NOTHING;
        }
    }

    /** The alert a server sent, along {@code error}'s cause chain; empty for alerts this side raised. */
    static Optional<String> receivedAlert(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SSLException && cause.getMessage() != null) {
                Matcher alert = RECEIVED_ALERT.matcher(cause.getMessage());
                if (alert.find()) {
                    return Optional.of(alert.group(1));
                }
            }
        }
        return Optional.empty();
    }
}
