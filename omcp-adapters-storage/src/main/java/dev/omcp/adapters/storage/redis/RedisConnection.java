package dev.omcp.adapters.storage.redis;

import dev.omcp.ports.auth.SharedStateUnavailableException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.SSLSocketFactory;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
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
 *
 * <p>Every wait is bounded, so a request thread is never stuck on a slow or frozen server: a permit
 * within {@value #PERMIT_WAIT_SECONDS} s, a connection within {@value #CONNECT_TIMEOUT_MILLIS} ms, each
 * answer within {@value #READ_TIMEOUT_MILLIS} ms (set here, not left to the client library's
 * defaults). A server that is down, frozen or saturated is reported as a
 * {@link SharedStateUnavailableException}, which callers treat as "refuse", never as "no entry"; so
 * is a server that answers with an error reply (out of memory, a read-only replica, a missing ACL
 * permission), with the reply's code and what to do in the message.
 */
public final class RedisConnection implements AutoCloseable {
    /** Connections in the pool, and commands in flight at most. */
    static final int MAX_CONNECTIONS = 16;
    static final int PERMIT_WAIT_SECONDS = 5;
    static final int CONNECT_TIMEOUT_MILLIS = 2000;
    static final int READ_TIMEOUT_MILLIS = 2000;
    /** The port of a URL without one, for redis:// and rediss:// alike (the schemes' IANA registrations). */
    static final int DEFAULT_PORT = 6379;
    private static final Duration PERMIT_WAIT = Duration.ofSeconds(PERMIT_WAIT_SECONDS);
    /** The TLS alerts (RFC 8446 6.2) a server sends about the client's certificate, or the lack of one. */
    private static final Set<String> CLIENT_CERTIFICATE_ALERTS = Set.of("certificate_required", "bad_certificate",
            "unsupported_certificate", "certificate_revoked", "certificate_expired", "certificate_unknown", "unknown_ca",
            "access_denied", "handshake_failure");

    /** What to do about an error reply, by its code. */
    private static final Map<String, String> REFUSAL_HINTS = Map.of(
            "OOM", "the server is out of memory (maxmemory); raise its maxmemory or free memory, and keep maxmemory-policy noeviction",
            "READONLY", "the URL names a read-only replica; point OMCP_REDIS_URL at the primary",
            "NOPERM", "the URL's ACL user lacks a permission; grant it ~omcp:* +@all -@dangerous",
            "NOAUTH", "the server asks for credentials; put the user and password in OMCP_REDIS_URL",
            "WRONGPASS", "the server refused the credentials; check the user and password in OMCP_REDIS_URL",
            "LOADING", "the server is loading its data after a restart; it answers once that is done",
            "MISCONF", "the server cannot save its snapshot and refuses writes (stop-writes-on-bgsave-error); check its disk and log",
            "BUSY", "a long-running script blocks the server",
            "MASTERDOWN", "the URL names a replica that lost its primary; point OMCP_REDIS_URL at the primary",
            "WRONGTYPE", "a key under omcp: holds another type than the gateway writes there: another program uses these keys; "
                    + "give the gateway its own database");

    /** The setting that names the shared store, in every message. */
    static final String SHARED_STORE_SETTING = "OMCP_REDIS_URL";

    private final RedisClient client;
    private final String description;
    private final String setting;
    private final Semaphore permits = new Semaphore(MAX_CONNECTIONS, true);

    private RedisConnection(RedisClient client, String description, String setting) {
        this.client = client;
        this.description = description;
        this.setting = setting;
    }

    /**
     * Connects and checks the server answers.
     *
     * @throws IllegalArgumentException when the URL is not a redis:// or rediss:// URL
     * @throws IllegalStateException when the server does not answer
     */
    public static RedisConnection connect(String url) {
        return connect(url, Optional.empty());
    }

    /**
     * Connects and checks the server answers; a {@code rediss://} server's certificate must chain to
     * the CAs of {@code tls} when it has some, else to the JVM's trust store, and the gateway presents
     * the client certificate of {@code tls} when it has one.
     *
     * @throws IllegalArgumentException when the URL is not a redis:// or rediss:// URL, or {@code tls} comes with redis://
     * @throws IllegalStateException when the server does not answer
     */
    public static RedisConnection connect(String url, Optional<RedisTls> tls) {
        return connect(url, tls, SHARED_STORE_SETTING);
    }

    /**
     * Connects to the server of the URL that {@code setting} holds ({@code OMCP_SCIM_REDIS_URL}), as
     * {@link #connect(String, Optional)} does; every message names {@code setting}.
     *
     * @throws IllegalArgumentException when the URL is not a redis:// or rediss:// URL, or {@code tls} comes with redis://
     * @throws IllegalStateException when the server does not answer
     */
    public static RedisConnection connect(String url, Optional<RedisTls> tls, String setting) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(setting + " is not a URL; use redis://host:6379 or rediss://host:6380");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("redis") || scheme.equals("rediss")) || uri.getHost() == null) {
            throw new IllegalArgumentException(setting + " must be redis://host:port or rediss://host:port (percent-encode"
                    + " @ : / # ? in a user name or password)");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            throw new IllegalArgumentException("the port of " + setting + " must be from 1 to 65535 (6379 when left out)");
        }
        int database = database(uri, setting);
        if (tls.isPresent() && !scheme.equals("rediss")) {
            throw new IllegalArgumentException(setting + " is not a rediss:// URL, yet TLS settings are set (" + tls.get().settings()
                    + "): use rediss:// for a server that speaks TLS, or unset them");
        }
        if (uri.getPort() < 0) {
            uri = withDefaultPort(uri, setting);
        }
        String description = scheme + "://" + uri.getHost() + ":" + uri.getPort();
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(MAX_CONNECTIONS);
        pool.setMaxIdle(MAX_CONNECTIONS);
        pool.setMinIdle(0);
        pool.setMaxWait(PERMIT_WAIT);
        pool.setJmxEnabled(false);
        // the timeouts first: fromURI adds the URL's credentials, database and TLS to this configuration
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(CONNECT_TIMEOUT_MILLIS)
                .socketTimeoutMillis(READ_TIMEOUT_MILLIS);
        // no SSL parameters of our own: without them Jedis checks the host name against the certificate
        tls.ifPresent(material -> config.sslSocketFactory(material.socketFactory()));
        DefaultJedisClientConfig timeouts = config.build();
        RedisClient client;
        try {
            client = RedisClient.builder().clientConfig(timeouts).fromURI(uri).poolConfig(pool).build();
        } catch (IllegalArgumentException | JedisException e) {
            throw new IllegalArgumentException(setting + " " + description + " cannot be used ("
                    + e.getClass().getSimpleName() + "); use redis://[user:password@]host:port[/database] or rediss://… for TLS");
        }
        try {
            client.ping();
        } catch (JedisException e) {
            client.close();
            throw new IllegalStateException(startFailure(e, description, database, uri, tls, setting), e);
        }
        return new RedisConnection(client, description, setting);
    }

    /**
     * The database the URL's path names: none (or a bare {@code /}) is 0. The client library would
     * take a negative number for 0 and report a word as a bare NumberFormatException; the path is
     * not echoed, as a password with an unencoded {@code /} would continue there.
     */
    private static int database(URI uri, String setting) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (path.isEmpty() || path.equals("/")) {
            return 0;
        }
        if (!path.matches("/[0-9]{1,9}")) {
            throw new IllegalArgumentException("the path of " + setting + " must be a database number (redis://host:port/0 to /15 on a"
                    + " server with the default 16 databases) or be left out for database 0; percent-encode / in a password");
        }
        return Integer.parseInt(path.substring(1));
    }

    /** Why the first command failed, and what to do, for a start refusal; never the URL's credentials. */
    private static String startFailure(JedisException e, String description, int database, URI uri, Optional<RedisTls> tls,
            String setting) {
        String server = "the Redis server at " + description + " (" + setting + ")";
        if (refusedCredentials(e) && uri.getRawUserInfo() == null) {
            return server + " asks for credentials and the URL has none: put them in " + setting + " as"
                    + " redis://user:password@host:port (redis://:password@host:port for requirepass)";
        }
        if (refusedCredentials(e)) {
            return server + " refused the credentials: check the user and password in the URL (percent-encode @ : / in them)";
        }
        Optional<JedisDataException> reply = errorReply(e);
        if (reply.isPresent() && String.valueOf(reply.get().getMessage()).contains("DB index is out of range")) {
            return server + " has no database " + database + " (the number in the URL's path): a server has as many as its"
                    + " `databases` setting says (16 by default), numbered from 0; use a lower number, or raise `databases`"
                    + " in the server's configuration";
        }
        if (reply.isPresent()) {
            String code = replyCode(reply.get());
            return server + " refused the connection's set-up (" + code + "): " + hint(code, "see the server's log", setting);
        }
        return server + " does not answer: " + causes(e) + (uri.getScheme().equalsIgnoreCase("rediss") ? tlsHint(e, uri, tls) : "");
    }

    /** What to do about the error reply {@code code}, naming the setting of this connection's URL. */
    private static String hint(String code, String otherwise, String setting) {
        return REFUSAL_HINTS.getOrDefault(code, otherwise).replace(SHARED_STORE_SETTING, setting);
    }

    private static Optional<JedisDataException> errorReply(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof JedisDataException reply) {
                return Optional.of(reply);
            }
        }
        return Optional.empty();
    }

    /** The first word of an error reply when it looks like a Redis error code, else ERR. */
    private static String replyCode(JedisDataException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        int space = message.indexOf(' ');
        String first = space < 0 ? message : message.substring(0, space);
        return first.matches("[A-Z]{2,20}") ? first : "ERR";
    }

    /**
     * {@code uri} with the default port written out: {@code redis://host} means port 6379, yet the
     * client library refuses a URL without a port. Only the raw (still percent-encoded) parts are
     * copied, so a password's escapes stay as they were.
     */
    private static URI withDefaultPort(URI uri, String setting) {
        String authority = uri.getRawAuthority();
        StringBuilder text = new StringBuilder(uri.getScheme()).append("://")
                .append(authority.endsWith(":") ? authority.substring(0, authority.length() - 1) : authority)
                .append(':').append(DEFAULT_PORT);
        if (uri.getRawPath() != null) {
            text.append(uri.getRawPath());
        }
        if (uri.getRawQuery() != null) {
            text.append('?').append(uri.getRawQuery());
        }
        try {
            return new URI(text.toString());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(setting + " is not a URL; use redis://host:6379 or rediss://host:6380");
        }
    }

    /**
     * What to check when a {@code rediss://} server does not answer, by the TLS alert it sent: the
     * Redis client rarely sees it (see {@link TlsAlertProbe}), so a probe asks once more.
     */
    private static String tlsHint(Throwable error, URI uri, Optional<RedisTls> tls) {
        boolean clientCertificate = tls.map(RedisTls::clientCertificate).orElse(false);
        SSLSocketFactory factory = tls.map(RedisTls::socketFactory).orElseGet(() -> (SSLSocketFactory) SSLSocketFactory.getDefault());
        TlsAlertProbe.Outcome probe = TlsAlertProbe.receivedAlert(error)
                .map(alert -> new TlsAlertProbe.Outcome(Optional.of(alert), false))
                .orElseGet(() -> TlsAlertProbe.probe(uri.getHost(), uri.getPort(), factory,
                        CONNECT_TIMEOUT_MILLIS));
        String alert = probe.alert().orElse("");
        if (!clientCertificate && CLIENT_CERTIFICATE_ALERTS.contains(alert)) {
            return "; the server asks for a client certificate (TLS alert " + alert + "; redis-server does by default with TLS,"
                    + " tls-auth-clients yes): set OMCP_REDIS_CERT_FILE and OMCP_REDIS_KEY_FILE to a certificate its"
                    + " tls-ca-cert-file CA issued, and its key";
        }
        if (clientCertificate && (CLIENT_CERTIFICATE_ALERTS.contains(alert) || probe.closedDuringHandshake())) {
            return "; the server refused the client certificate of OMCP_REDIS_CERT_FILE ("
                    + (alert.isEmpty() ? "it closed the connection during the TLS handshake" : "TLS alert " + alert) + "): it must be"
                    + " issued by a CA in the server's tls-ca-cert-file, be valid now, and allow client authentication";
        }
        return "; with rediss:// the server must speak TLS on that port, and its certificate must name that host and chain to "
                + (tls.map(RedisTls::privateCa).orElse(false) ? "a CA in OMCP_REDIS_CA_FILE" : "a CA the JVM trusts (for a private CA, "
                        + "set OMCP_REDIS_CA_FILE to its PEM certificate)");
    }

    /**
     * Runs one command (or one script) with a connection permit.
     *
     * @throws SharedStateUnavailableException when no permit frees up within {@value #PERMIT_WAIT_SECONDS} s,
     *     or the server cannot be reached or does not answer in time
     */
    <T> T execute(Function<RedisClient, T> command) {
        try {
            if (!permits.tryAcquire(PERMIT_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new SharedStateUnavailableException("the shared store " + description + " (" + setting + ") is saturated: "
                        + MAX_CONNECTIONS + " commands have been waiting for its answers for " + PERMIT_WAIT_SECONDS
                        + " s; check the server's latency and load");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SharedStateUnavailableException("interrupted while waiting for a connection to the shared store", e);
        }
        try {
            return command.apply(client);
        } catch (JedisConnectionException e) {
            if (timedOut(e)) {
                throw unavailable(e);
            }
            // A pooled connection the server closed (it restarted): the idle ones are just as dead, so
            // they go, and the command runs once more on a new connection. Repeating is safe for every
            // command here: reads, idempotent writes, and at worst one failed login counted twice.
            client.getPool().clear();
            try {
                return command.apply(client);
            } catch (JedisDataException again) {
                throw refused(again);
            } catch (JedisException again) {
                throw unavailable(again);
            }
        } catch (JedisDataException e) {
            throw refused(e);
        } catch (JedisException e) {
            throw unavailable(e);
        } finally {
            permits.release();
        }
    }

    /**
     * The server answered with an error reply: it is up, so "check that it is up" would mislead.
     * Only the reply's code (its first word) is shown, with what to do about it.
     */
    private SharedStateUnavailableException refused(JedisDataException e) {
        String code = replyCode(e);
        return new SharedStateUnavailableException("the shared store " + description + " (" + setting + ") refused the command ("
                + code + "): " + hint(code, "see the server's log; another program writing keys under omcp: "
                        + "causes this too: give the gateway its own database", setting), e);
    }

    /** A key held a value the gateway never writes there (refused, never taken for "no entry"). */
    SharedStateUnavailableException unexpectedValue(String key) {
        return new SharedStateUnavailableException("the shared store " + description + " (" + setting + ") holds a value the gateway "
                + "does not write at " + key + ": another program uses the gateway's keys; give the gateway its own database");
    }

    private SharedStateUnavailableException unavailable(JedisException e) {
        // the client's messages name the host at most, never the URL's password
        return new SharedStateUnavailableException("the shared store " + description + " (" + setting + ") did not answer ("
                + e.getClass().getSimpleName() + "); check that the server is up and reachable", e);
    }

    private static boolean timedOut(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static boolean refusedCredentials(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof JedisAccessControlException) {
                return true;
            }
        }
        return false;
    }

    /** The class names along the cause chain (a TLS failure shows as SSLHandshakeException); messages may name hosts. */
    private static String causes(Throwable error) {
        StringBuilder names = new StringBuilder(error.getClass().getSimpleName());
        for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            names.append(" < ").append(cause.getClass().getSimpleName());
        }
        return names.toString();
    }

    /**
     * The server's clock (TIME), which every replica reads alike.
     *
     * @throws SharedStateUnavailableException when the server does not answer, or not with a time
     */
    Instant serverTime() {
        return RedisServerTime.parse(execute(c -> c.sendCommand(Protocol.Command.TIME)), description);
    }

    /** The setting that holds this connection's URL ({@code OMCP_REDIS_URL}, {@code OMCP_SCIM_REDIS_URL}), for messages. */
    String setting() {
        return setting;
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
