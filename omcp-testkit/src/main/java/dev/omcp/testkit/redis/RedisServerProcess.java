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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
    private final List<String> extraArguments;
    private final Optional<String> password;

    private RedisServerProcess(Process process, int port, List<String> extraArguments, Optional<String> password) {
        this.process = process;
        this.port = port;
        this.extraArguments = List.copyOf(extraArguments);
        this.password = password;
    }

    /** Starts a server and waits until it answers {@code PING}. */
    public static RedisServerProcess start() {
        return start(List.of(), Optional.empty());
    }

    /**
     * Starts a server with more command-line options, for example {@code --requirepass secret} or
     * {@code --user name on >password ~* +@all}; {@code password} is the default user's, for this
     * class's own {@code PING} and {@code FLUSHALL}.
     */
    public static RedisServerProcess start(List<String> extraArguments, Optional<String> password) {
        return start(freePort(), extraArguments, password);
    }

    private static RedisServerProcess start(int port, List<String> extraArguments, Optional<String> password) {
        Path binary = CANDIDATES.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new IllegalStateException(
                "redis-server is not installed; install it with: apt-get install -y redis-server"));
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--protected-mode", "yes"));
        command.addAll(extraArguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("redis-server could not be started: " + e.getMessage(), e);
        }
        RedisServerProcess server = new RedisServerProcess(process, port, extraArguments, password);
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

    /**
     * Stops this server and starts a new one on the same port with the same options: without
     * persistence every key is gone, as after a crash of a server that keeps nothing on disk.
     */
    public RedisServerProcess restart() {
        close();
        return start(port, extraArguments, password);
    }

    /** Stops the process without ending it (SIGSTOP): connections open, nothing answers, like a hung server. */
    public void freeze() {
        signal("STOP");
    }

    /** Lets a frozen server run again (SIGCONT). */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("kill -" + name + " could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling redis-server", e);
        }
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

    /** The RESP encoding of one command. */
    private static String resp(String... words) {
        StringBuilder out = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            out.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return out.toString();
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
            if (password.isPresent()) {
                out.write(resp("AUTH", password.get()).getBytes(StandardCharsets.UTF_8));
            }
            out.write(resp.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            if (password.isPresent()) {
                String auth = readLine(in);
                if (!auth.startsWith("+OK")) {
                    return auth;
                }
            }
            return readLine(in);
        } catch (IOException e) {
            throw new IllegalStateException("redis-server on port " + port + " does not answer: " + e.getMessage(), e);
        }
    }

    /** One reply line (the replies read here are one line each). */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            line.append((char) b);
        }
        return line.toString();
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
