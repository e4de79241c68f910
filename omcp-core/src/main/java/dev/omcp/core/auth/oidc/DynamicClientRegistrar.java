package dev.omcp.core.auth.oidc;

import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.ClientRegistrar;
import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.RegisteredClient;
import dev.omcp.ports.auth.RegistrationResult;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * RFC 7591 dynamic client registration for MCP clients that introduce themselves to the gateway.
 * The endpoint is unauthenticated by nature, so it is strict: redirect URIs must be https, or
 * http on a loopback host (RFC 8252), without fragments; only the authorization code flow is
 * registered; at most 10 registrations per address per hour and {@code maxClients} in all. Text
 * that is stored and shown again (client name, scope, redirect URIs) holds no control or invisible
 * formatting character, so a bidi override cannot make a name or URI read as something else. The
 * per-address counter holds at most {@link #MAX_ADDRESSES} addresses; past that a new address is
 * refused (429) until windows end, so spraying addresses cannot grow memory.
 *
 * <p>Registrations are open, so the cap alone would let anyone fill the registry for good. No
 * endpoint of the gateway redeems a registered {@code client_id} (it has no token endpoint of its
 * own), so a registration is never used here: once the registry is full, those older than
 * {@link #UNUSED_GRACE} are removed to make room, in the same write that stores the new one. Junk
 * registrations thus age out, and no write happens but for a registration admitted.
 */
public final class DynamicClientRegistrar implements ClientRegistrar {
    static final int MAX_REDIRECT_URIS = 10;
    static final int MAX_URI_LENGTH = 2048;
    static final int MAX_NAME_LENGTH = 200;
    static final int MAX_SCOPE_LENGTH = 1000;
    static final int PER_ADDRESS_PER_HOUR = 10;
    /** Addresses with a live window the per-address counter holds at most (a couple of MiB). */
    static final int MAX_ADDRESSES = 10_000;
    private static final Duration ADDRESS_WINDOW = Duration.ofHours(1);
    /** How long a registration is certainly kept; after it, it may be removed when room is needed. */
    static final Duration UNUSED_GRACE = Duration.ofHours(24);
    private static final Set<String> AUTH_METHODS = Set.of("none", "client_secret_basic", "client_secret_post");
    private static final Set<String> GRANT_TYPES = Set.of("authorization_code", "refresh_token");
    private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    private final ClientRegistrationStore store;
    private final Clock clock;
    private final SecureRandom random;
    private final int maxClients;
    private final RegistrationsPerAddress perAddress;
    private final ReentrantLock registrations = new ReentrantLock();

    public DynamicClientRegistrar(ClientRegistrationStore store, Clock clock, SecureRandom random, int maxClients) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.maxClients = maxClients;
        this.perAddress = new RegistrationsPerAddress(PER_ADDRESS_PER_HOUR, ADDRESS_WINDOW, MAX_ADDRESSES);
    }

    @Override
    public RegistrationResult register(ClientMetadata metadata, String clientIp) {
        Instant now = clock.instant();
        RegistrationResult.Rejected invalid = validate(metadata);
        if (invalid != null) {
            return invalid;
        }
        // counted by IPv4 address or IPv6 /64, as the login limits count (AddressWindows): every address of a range would count anew
        Optional<Duration> refused = perAddress.tryAdmit(clientIp, now);
        if (refused.isPresent()) {
            return new RegistrationResult.TooMany(refused.get());
        }
        String authMethod = metadata.tokenEndpointAuthMethod().isEmpty() ? "client_secret_basic" : metadata.tokenEndpointAuthMethod();
        List<String> grants = metadata.grantTypes().isEmpty() ? List.of("authorization_code") : metadata.grantTypes();
        List<String> responses = metadata.responseTypes().isEmpty() ? List.of("code") : metadata.responseTypes();
        ClientMetadata effective = new ClientMetadata(
                metadata.redirectUris(), metadata.clientName(), authMethod, grants, responses, metadata.scope());
        String secret = "";
        if (!authMethod.equals("none")) {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        }
        RegisteredClient client = new RegisteredClient(newClientId(), secret.isEmpty() ? "" : sha256(secret), now, effective);
        // Count and save under one lock: checked apart, concurrent registrations (from as many
        // addresses) would each see room for one more and together overshoot the bound. A
        // ReentrantLock, not synchronized, because a file store's save does I/O.
        registrations.lock();
        try {
            if (store.count() < maxClients) {
                store.save(client);
            } else {
                Optional<RegistrationResult.RegistryFull> full = saveMakingRoom(client, now);
                if (full.isPresent()) {
                    return full.get();
                }
            }
        } finally {
            registrations.unlock();
        }
        return new RegistrationResult.Registered(client, secret, now.plus(UNUSED_GRACE));
    }

    /**
     * Saves {@code client} in place of every registration older than the grace period, or says when
     * one will be old enough. Removes them all at once, not one per registration, so the listing
     * runs only when the registry is full again.
     */
    private Optional<RegistrationResult.RegistryFull> saveMakingRoom(RegisteredClient client, Instant now) {
        Instant cutoff = now.minus(UNUSED_GRACE);
        List<RegisteredClient> all = store.registrations();
        Set<String> expired = new HashSet<>();
        List<Instant> young = new ArrayList<>();
        for (RegisteredClient stored : all) {
            if (stored.issuedAt().isAfter(cutoff)) {
                young.add(stored.issuedAt());
            } else {
                expired.add(stored.clientId());
            }
        }
        // more than the cap may be stored when an operator lowered it or filled the file by hand
        int mustGo = young.size() - maxClients + 1;
        if (mustGo <= 0) {
            store.replace(expired, client);
            return Optional.empty();
        }
        young.sort(Comparator.naturalOrder());
        Instant roomAt = young.get(mustGo - 1).plus(UNUSED_GRACE);
        Duration wait = Duration.between(now, roomAt);
        return Optional.of(new RegistrationResult.RegistryFull(wait, "the gateway holds its maximum of " + maxClients
                + " client registrations, all made within the last " + UNUSED_GRACE.toHours() + " hours; room frees at " + roomAt
                + " (after the Retry-After seconds), when the oldest may be removed. An operator can free room at once by removing"
                + " entries from the OMCP_OIDC_DCR_STORE file and restarting the gateway (without that setting a restart empties"
                + " the registry)"));
    }

    private RegistrationResult.Rejected validate(ClientMetadata metadata) {
        if (metadata.redirectUris().isEmpty()) {
            return new RegistrationResult.Rejected("invalid_redirect_uri", "redirect_uris must list at least one URI");
        }
        if (metadata.redirectUris().size() > MAX_REDIRECT_URIS) {
            return new RegistrationResult.Rejected("invalid_redirect_uri", "redirect_uris may list at most " + MAX_REDIRECT_URIS + " URIs");
        }
        for (String uri : metadata.redirectUris()) {
            String problem = redirectProblem(uri);
            if (problem != null) {
                return new RegistrationResult.Rejected("invalid_redirect_uri", problem);
            }
        }
        if (metadata.clientName().length() > MAX_NAME_LENGTH) {
            return new RegistrationResult.Rejected("invalid_client_metadata",
                    "client_name must be at most " + MAX_NAME_LENGTH + " characters");
        }
        Optional<String> nameProblem = invisibleCharacter("client_name", metadata.clientName());
        if (nameProblem.isPresent()) {
            return new RegistrationResult.Rejected("invalid_client_metadata", nameProblem.get());
        }
        if (!metadata.tokenEndpointAuthMethod().isEmpty() && !AUTH_METHODS.contains(metadata.tokenEndpointAuthMethod())) {
            return new RegistrationResult.Rejected("invalid_client_metadata",
                    "token_endpoint_auth_method must be one of none, client_secret_basic, client_secret_post");
        }
        for (String grant : metadata.grantTypes()) {
            if (!GRANT_TYPES.contains(grant)) {
                return new RegistrationResult.Rejected("invalid_client_metadata",
                        "grant_types may hold only authorization_code and refresh_token");
            }
        }
        if (!metadata.grantTypes().isEmpty() && !metadata.grantTypes().contains("authorization_code")) {
            return new RegistrationResult.Rejected("invalid_client_metadata", "grant_types must include authorization_code");
        }
        for (String response : metadata.responseTypes()) {
            if (!response.equals("code")) {
                return new RegistrationResult.Rejected("invalid_client_metadata", "response_types may hold only code");
            }
        }
        if (metadata.scope().length() > MAX_SCOPE_LENGTH) {
            return new RegistrationResult.Rejected("invalid_client_metadata", "scope must be at most " + MAX_SCOPE_LENGTH + " characters");
        }
        Optional<String> scopeProblem = invisibleCharacter("scope", metadata.scope());
        if (scopeProblem.isPresent()) {
            return new RegistrationResult.Rejected("invalid_client_metadata", scopeProblem.get());
        }
        return null;
    }

    /**
     * Why {@code text} cannot be stored as {@code field}, if it holds a character that is invisible or
     * acts on the text around it wherever the registration is shown again (an answer, a file, an
     * audit view, a log line): C0 and C1 controls (line breaks among them), format characters (the
     * bidi controls U+200E, U+200F, U+202A-202E and U+2066-2069, zero-width characters), line and
     * paragraph separators, and lone surrogates. A bidi override would make a client name or a
     * redirect URI read as something other than what it is.
     */
    static Optional<String> invisibleCharacter(String field, String text) {
        OptionalInt found = text.codePoints().filter(DynamicClientRegistrar::invisible).findFirst();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(field + " holds U+" + String.format(Locale.ROOT, "%04X", found.getAsInt()) + ", a control or invisible "
                + "formatting character (such as a line break or a bidi override); send it as plain text without such characters");
    }

    private static boolean invisible(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE -> true;
            default -> false;
        };
    }

    private static String redirectProblem(String text) {
        if (text.length() > MAX_URI_LENGTH) {
            return "a redirect URI is longer than " + MAX_URI_LENGTH + " characters";
        }
        // java.net.URI takes Unicode format characters in a path or query as they are, so a bidi
        // override would pass its checks and come back in every answer that lists the URI
        Optional<String> invisible = invisibleCharacter("a redirect URI", text);
        if (invisible.isPresent()) {
            return invisible.get();
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return "a redirect URI is not a valid URI";
        }
        if (!uri.isAbsolute() || uri.getHost() == null) {
            return "redirect URIs must be absolute with a host";
        }
        if (uri.getRawFragment() != null) {
            return "redirect URIs must not have a fragment (RFC 6749 section 3.1.2)";
        }
        if (uri.getRawUserInfo() != null) {
            return "redirect URIs must not carry user information";
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            return null;
        }
        if (scheme.equals("http") && LOOPBACK_HOSTS.contains(host)) {
            return null;
        }
        return "redirect URIs must use https, or http on localhost, 127.0.0.1 or [::1] (RFC 8252)";
    }

    private String newClientId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40);
        bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (bytes[i] & 0xff);
            least = (least << 8) | (bytes[i + 8] & 0xff);
        }
        return new UUID(most, least).toString();
    }

    private static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
