package dev.omcp.adapters.storage.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One pooled Redis client for the gateway's shared state. The URL may carry credentials
 * ({@code redis://user:password@host:6379/0}, {@code rediss://} for TLS); they never appear in
 * messages.
 */
public final class RedisConnection implements AutoCloseable {
    private final RedisClient client;
    private final String description;

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
        RedisClient client = RedisClient.builder().fromURI(uri).build();
        try {
            client.ping();
        } catch (JedisException e) {
            client.close();
            throw new IllegalStateException("the Redis server at " + description + " (OMCP_REDIS_URL) does not answer: "
                    + e.getClass().getSimpleName(), e);
        }
        return new RedisConnection(client, description);
    }

    RedisClient client() {
        return client;
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
