package dev.omcp.testkit.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the Debian {@code redis-server} binary on a free loopback port with persistence off
 * ({@code --save "" --appendonly no}) and stops it again. When the binary is missing the start
 * fails with an install hint: tests tagged {@code backend} must fail, not skip, when their
 * backend is absent.
 */
public final class RedisServerProcess implements AutoCloseable {
    private static final List<Path> CANDIDATES = List.of(Path.of("/usr/bin/redis-server"), Path.of("/usr/local/bin/redis-server"));

    private final Process process;
    private final int port;

    private RedisServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts a server and waits until it answers {@code PING}. */
    public static RedisServerProcess start() {
        Path binary = CANDIDATES.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new IllegalStateException(
                "redis-server is not installed; install it with: apt-get install -y redis-server"));
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--protected-mode", "yes")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server could not be started: " + e.getMessage(), e);
        }
        RedisServerProcess server = new RedisServerProcess(process, port);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + " right after start");
            }
            if (server.ping()) {
                return server;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                server.close();
                throw new IllegalStateException("interrupted while waiting for redis-server", e);
            }
        }
        server.close();
        throw new IllegalStateException("redis-server did not answer PING within 10 s on port " + port);
    }

    /** The port it listens on (127.0.0.1). */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Deletes every key, so tests start clean. */
    public void flushAll() {
        command("*1\r\n$8\r\nFLUSHALL\r\n");
    }

    private boolean ping() {
        try {
            return command("*1\r\n$4\r\nPING\r\n").startsWith("+PONG");
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private String command(String resp) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            out.write(resp.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[64];
            int read = in.read(buffer);
            return read <= 0 ? "" : new String(buffer, 0, read, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("redis-server on port " + port + " does not answer: " + e.getMessage(), e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
