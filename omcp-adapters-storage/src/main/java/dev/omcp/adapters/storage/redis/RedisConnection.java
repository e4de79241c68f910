package dev.omcp.adapters.storage.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One pooled Redis client for the gateway's shared state. The URL may carry credentials
 * ({@code redis://user:password@host:6379/0}, {@code rediss://} for TLS); they never appear in
 * messages.
 *
 * <p>Requests run on virtual threads, and the connection pool (commons-pool2) busy-waits when more
 * threads want a connection than it may create: with hundreds of virtual threads on two carrier
 * threads that spin starved the threads holding connections, a livelock the shared contract test
 * reproduced. So every command first takes one of {@value #MAX_CONNECTIONS} permits of a fair
 * semaphore, which parks virtual threads properly, and the pool never sees more borrowers than
 * connections.
 */
public final class RedisConnection implements AutoCloseable {
    /** Connections in the pool, and commands in flight at most. */
    static final int MAX_CONNECTIONS = 16;
    private static final Duration PERMIT_WAIT = Duration.ofSeconds(5);

    private final RedisClient client;
    private final String description;
    private final Semaphore permits = new Semaphore(MAX_CONNECTIONS, true);

    private RedisConnection(RedisClient client, String description) {
        this.client = client;
        this.description = description;
    }

    /**
     * Connects and checks the server answers.
     *
     * @throws IllegalArgumentException when the URL is not a redis:// or rediss:// URL
     * @throws IllegalStateException when the server does not answer
     */
    public static RedisConnection connect(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("OMCP_REDIS_URL is not a URL; use redis://host:6379 or rediss://host:6380");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("redis") || scheme.equals("rediss")) || uri.getHost() == null) {
            throw new IllegalArgumentException("OMCP_REDIS_URL must be redis://host:port or rediss://host:port");
        }
        String description = scheme + "://" + uri.getHost() + ":" + (uri.getPort() < 0 ? 6379 : uri.getPort());
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(MAX_CONNECTIONS);
        pool.setMaxIdle(MAX_CONNECTIONS);
        pool.setMinIdle(0);
        pool.setMaxWait(PERMIT_WAIT);
        pool.setJmxEnabled(false);
        RedisClient client = RedisClient.builder().fromURI(uri).poolConfig(pool).build();
        try {
            client.ping();
        } catch (JedisException e) {
            client.close();
            throw new IllegalStateException("the Redis server at " + description + " (OMCP_REDIS_URL) does not answer: "
                    + e.getClass().getSimpleName(), e);
        }
        return new RedisConnection(client, description);
    }

    /**
     * Runs one command (or one script) with a connection permit.
     *
     * @throws IllegalStateException when no permit frees up within 5 seconds
     */
    <T> T execute(Function<RedisClient, T> command) {
        try {
            if (!permits.tryAcquire(PERMIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the shared store (OMCP_REDIS_URL) is saturated: no connection within "
                        + PERMIT_WAIT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a shared-store connection", e);
        }
        try {
            return command.apply(client);
        } finally {
            permits.release();
        }
    }

    /** {@code scheme://host:port}, without credentials. */
    public String description() {
        return description;
    }

    @Override
    public void close() {
        client.close();
    }
}
