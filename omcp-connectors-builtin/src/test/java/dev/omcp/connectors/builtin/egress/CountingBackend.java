package dev.omcp.connectors.builtin.egress;

import com.sun.net.httpserver.HttpServer;
import dev.omcp.connectors.builtin.TestContexts;
import dev.omcp.ports.egress.EgressVerdict;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback backend for the resolver tests that counts the requests reaching it, so a test can
 * show a refused name was never connected to; and the rules those tests judge names by.
 */
final class CountingBackend implements AutoCloseable {
    private final HttpServer server;
    private final AtomicInteger hits = new AtomicInteger();

    CountingBackend() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            hits.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    int hits() {
        return hits.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * Admits only 127.0.0.1: 127.0.0.2 plays the cloud-metadata address, so even a broken guard
     * would only ever connect to loopback.
     */
    static final class OnlyOneLoopbackAddress extends TestContexts.LoopbackPolicy {
        private static final byte[] ALLOWED = {127, 0, 0, 1};

        @Override
        public EgressVerdict checkAddress(byte[] address) {
            return Arrays.equals(address, ALLOWED) ? EgressVerdict.allow() : EgressVerdict.refuse("a cloud-metadata address (stand-in)");
        }
    }
}
