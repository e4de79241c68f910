package dev.omcp.core.auth.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.time.ManualClock;
import dev.omcp.ports.auth.ClientMetadata;
import dev.omcp.ports.auth.RegisteredClient;
import dev.omcp.ports.auth.RegistrationResult;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DynamicClientRegistrarTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryClientRegistrationStore store = new InMemoryClientRegistrationStore();
    private final DynamicClientRegistrar registrar = new DynamicClientRegistrar(store, clock, new SecureRandom(), 100);

    private static ClientMetadata metadata(List<String> redirects, String authMethod) {
        return new ClientMetadata(redirects, "Cursor", authMethod, List.of(), List.of(), "");
    }

    @Test
    void aConfidentialClientGetsAnIdAndASecret_onlyTheSecretsDigestIsStored() {
        RegistrationResult.Registered registered = (RegistrationResult.Registered) registrar.register(
                metadata(List.of("https://app.example.com/callback"), ""), "192.0.2.1");
        assertThat(registered.client().clientId()).matches("[0-9a-f-]{36}");
        assertThat(registered.clientSecret()).hasSizeGreaterThanOrEqualTo(43);
        assertThat(registered.client().secretSha256()).hasSize(64).isNotEqualTo(registered.clientSecret());
        assertThat(registered.client().metadata().tokenEndpointAuthMethod()).isEqualTo("client_secret_basic");
        assertThat(registered.client().metadata().grantTypes()).containsExactly("authorization_code");
        assertThat(registered.client().metadata().responseTypes()).containsExactly("code");
        assertThat(store.count()).isEqualTo(1);
    }

    @Test
    void aPublicClientGetsNoSecret() {
        RegistrationResult.Registered registered = (RegistrationResult.Registered) registrar.register(
                metadata(List.of("http://127.0.0.1:33418/callback", "http://localhost/cb"), "none"), "192.0.2.1");
        assertThat(registered.clientSecret()).isEmpty();
        assertThat(registered.client().secretSha256()).isEmpty();
    }

    @Test
    void unsafeRedirectUrisAreRejected_andNothingIsStored() {
        for (String uri : List.of("http://evil.example.com/cb", "https://app.example.com/cb#frag", "javascript:alert(1)",
                "relative/path", "https://user:pw@app.example.com/cb", "ftp://127.0.0.1/cb")) {
            RegistrationResult result = registrar.register(metadata(List.of(uri), ""), "192.0.2.1");
            assertThat(result).as(uri).isInstanceOfSatisfying(RegistrationResult.Rejected.class,
                    r -> assertThat(r.error()).isEqualTo("invalid_redirect_uri"));
        }
        assertThat(registrar.register(metadata(List.of(), ""), "192.0.2.1")).isInstanceOf(RegistrationResult.Rejected.class);
        assertThat(store.count()).isZero();
    }

    @Test
    void unsupportedMetadataIsRejected() {
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "private_key_jwt"), "ip"))
                .isInstanceOfSatisfying(RegistrationResult.Rejected.class, r -> assertThat(r.error()).isEqualTo("invalid_client_metadata"));
        assertThat(registrar.register(new ClientMetadata(List.of("https://a.example/cb"), "", "", List.of("implicit"), List.of(), ""), "ip"))
                .isInstanceOf(RegistrationResult.Rejected.class);
        assertThat(registrar.register(new ClientMetadata(List.of("https://a.example/cb"), "", "", List.of(), List.of("token"), ""), "ip"))
                .isInstanceOf(RegistrationResult.Rejected.class);
        assertThat(registrar.register(new ClientMetadata(List.of("https://a.example/cb"), "x".repeat(201), "", List.of(), List.of(), ""), "ip"))
                .isInstanceOf(RegistrationResult.Rejected.class);
        assertThat(store.count()).isZero();
    }

    @Test
    void bidiControlsAndOtherInvisibleCharacters_areRefusedInEveryStoredText_namingTheField_andNothingIsStored() {
        // U+202E (right-to-left override) between "Cursor" and "gnp.exe" makes the name read "Cursorexe.png" wherever it is shown
        List<String> invisible = List.of("\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069",
                "\u200E", "\u200F", "\u200B", "\uFEFF", "\u2028", "\u2029", "\u0000", "\n", "\u001B", "\u007F", "\u0085", "\u009B", "\uD800");
        for (String hidden : invisible) {
            String named = String.format("U+%04X", (int) hidden.charAt(0));
            assertThat(registrar.register(new ClientMetadata(List.of("https://a.example/cb"), "Cursor" + hidden + "gnp.exe", "none",
                    List.of(), List.of(), ""), "192.0.2.1")).as("client_name with " + named)
                    .isInstanceOfSatisfying(RegistrationResult.Rejected.class, r -> {
                        assertThat(r.error()).isEqualTo("invalid_client_metadata");
                        assertThat(r.description()).startsWith("client_name holds " + named + ", a control or invisible formatting character");
                    });
            assertThat(registrar.register(new ClientMetadata(List.of("https://a.example/cb"), "Cursor", "none", List.of(), List.of(),
                    "openid" + hidden + " profile"), "192.0.2.1")).as("scope with " + named)
                    .isInstanceOfSatisfying(RegistrationResult.Rejected.class, r -> {
                        assertThat(r.error()).isEqualTo("invalid_client_metadata");
                        assertThat(r.description()).startsWith("scope holds " + named);
                    });
            assertThat(registrar.register(metadata(List.of("https://a.example/cb" + hidden + "/lmth.xedni"), "none"), "192.0.2.1"))
                    .as("redirect URI with " + named).isInstanceOfSatisfying(RegistrationResult.Rejected.class, r -> {
                        assertThat(r.error()).isEqualTo("invalid_redirect_uri");
                        assertThat(r.description()).startsWith("a redirect URI holds " + named);
                    });
        }
        assertThat(store.count()).isZero();
        // refusals do not use up the address's ten registrations an hour, and visible non-ASCII text is fine
        RegistrationResult.Registered registered = (RegistrationResult.Registered) registrar.register(new ClientMetadata(
                List.of("https://a.example/caf\u00e9"), "Caf\u00e9 \u65e5\u672c \uD83D\uDE80", "none", List.of(), List.of(), "openid"), "192.0.2.1");
        assertThat(registered.client().metadata().clientName()).isEqualTo("Caf\u00e9 \u65e5\u672c \uD83D\uDE80");
    }

    @Test
    void tenRegistrationsPerAddressPerHour() {
        for (int i = 0; i < 10; i++) {
            assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                    .isInstanceOf(RegistrationResult.Registered.class);
        }
        clock.advance(Duration.ofMinutes(20));
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                .isEqualTo(new RegistrationResult.TooMany(Duration.ofMinutes(40)));
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.2"))
                .isInstanceOf(RegistrationResult.Registered.class);
        clock.advance(Duration.ofMinutes(40));
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                .isInstanceOf(RegistrationResult.Registered.class);
    }

    @Test
    void theAddressesOfOneIpv6Slash64_shareTenRegistrationsAnHour() {
        for (int i = 0; i < 10; i++) {
            assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db8:5:6::" + Integer.toHexString(i + 1)))
                    .isInstanceOf(RegistrationResult.Registered.class);
        }
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db8:5:6:ffff::99"))
                .isInstanceOf(RegistrationResult.TooMany.class);
        assertThat(registrar.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db8:5:7::1"))
                .isInstanceOf(RegistrationResult.Registered.class);
    }

    @Test
    void addressesSprayedFromARange_areRefusedOnceTheCounterIsFull_soItsMemoryStaysBounded() {
        // 10 000 addresses, the documented bound: a client holding an IPv6 range could otherwise
        // add an entry with every request, and every request past 10 000 scanned the whole table
        int bound = 10_000;
        DynamicClientRegistrar open = new DynamicClientRegistrar(store, clock, new SecureRandom(), 2 * bound);
        for (int i = 0; i < bound; i++) {
            // one /64 each: addresses within one /64 share one allowance
            assertThat(open.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db8:" + Integer.toHexString(i) + "::1"))
                    .isInstanceOf(RegistrationResult.Registered.class);
        }
        clock.advance(Duration.ofMinutes(15));

        assertThat(open.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db9::1"))
                .isInstanceOfSatisfying(RegistrationResult.TooMany.class, tooMany -> assertThat(tooMany.retryAfter())
                        .isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofMinutes(45)));
        // an address already counted keeps its own allowance
        assertThat(open.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db8:0::2"))
                .isInstanceOf(RegistrationResult.Registered.class);
        assertThat(store.count()).isEqualTo(bound + 1);

        clock.advance(Duration.ofMinutes(45));
        assertThat(open.register(metadata(List.of("https://a.example/cb"), "none"), "2001:db9::1"))
                .isInstanceOf(RegistrationResult.Registered.class);
    }

    @Test
    void theRegistryIsBounded() {
        DynamicClientRegistrar small = new DynamicClientRegistrar(store, clock, new SecureRandom(), 1);
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "a")).isInstanceOf(RegistrationResult.Registered.class);
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "b"))
                .isInstanceOf(RegistrationResult.RegistryFull.class);
    }

    @Test
    void aFullRegistry_makesRoomByRemovingRegistrationsNotUsedWithin24Hours() {
        // nothing in the gateway redeems a registered client_id, so a registration 24 hours old has never been used
        DynamicClientRegistrar small = new DynamicClientRegistrar(store, clock, new SecureRandom(), 2);
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                .isInstanceOf(RegistrationResult.Registered.class);
        clock.advance(Duration.ofHours(1));
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.2"))
                .isInstanceOf(RegistrationResult.Registered.class);
        clock.advance(Duration.ofHours(23));

        // the first is 24 hours old now, the second 23: only the first makes room
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.3"))
                .isInstanceOf(RegistrationResult.Registered.class);
        assertThat(store.count()).isEqualTo(2);
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.4"))
                .isInstanceOf(RegistrationResult.RegistryFull.class);
        assertThat(store.count()).isEqualTo(2);
    }

    @Test
    void aFullRegistryWithNothingOldEnough_saysWhenRoomFrees_andWhatAnOperatorCanDo_andKeepsEveryRegistration() {
        DynamicClientRegistrar small = new DynamicClientRegistrar(store, clock, new SecureRandom(), 2);
        small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1");
        clock.advance(Duration.ofHours(2));
        small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.2");
        clock.advance(Duration.ofHours(1));

        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.3"))
                .isInstanceOfSatisfying(RegistrationResult.RegistryFull.class, full -> {
                    assertThat(full.retryAfter()).isEqualTo(Duration.ofHours(21));
                    assertThat(full.description()).isEqualTo("the gateway holds its maximum of 2 client registrations, all made"
                            + " within the last 24 hours; room frees at 2026-03-02T10:00:00Z (after the Retry-After seconds), when the"
                            + " oldest may be removed. An operator can free room at once by removing entries from the OMCP_OIDC_DCR_STORE"
                            + " file and restarting the gateway (without that setting a restart empties the registry)");
                });
        assertThat(store.registrations()).hasSize(2);
    }

    @Test
    void moreStoredThanTheCap_roomFreesWhenEnoughHaveAgedOut() {
        // a file filled by hand, or a cap lowered since: three young ones must age out before one more fits under 2
        for (int i = 0; i < 4; i++) {
            store.save(new RegisteredClient("id-" + i, "", clock.instant().plus(Duration.ofHours(i)),
                    metadata(List.of("https://a.example/cb"), "none")));
        }
        clock.advance(Duration.ofHours(4));
        DynamicClientRegistrar small = new DynamicClientRegistrar(store, clock, new SecureRandom(), 2);
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                .isInstanceOfSatisfying(RegistrationResult.RegistryFull.class,
                        full -> assertThat(full.retryAfter()).isEqualTo(Duration.ofHours(22)));
        clock.advance(Duration.ofHours(22));
        assertThat(small.register(metadata(List.of("https://a.example/cb"), "none"), "192.0.2.1"))
                .isInstanceOf(RegistrationResult.Registered.class);
        assertThat(store.registrations()).extracting(RegisteredClient::clientId).startsWith("id-3").hasSize(2);
    }

    @Test
    void aRegistrationIsCertainlyKeptFor24Hours_whichTheClientIsToldAsTheSecretsExpiry() {
        RegistrationResult.Registered registered = (RegistrationResult.Registered) registrar.register(
                metadata(List.of("https://app.example.com/callback"), ""), "192.0.2.1");
        assertThat(registered.keptUntil()).isEqualTo(Instant.parse("2026-03-02T10:00:00Z"));
    }

    @Test
    void concurrentRegistrationsFromManyAddresses_neverOvershootTheBound() throws Exception {
        // A store whose save takes a moment (as a file's does) widens the window between counting
        // and saving; checked apart, every racer would see room for one more.
        InMemoryClientRegistrationStore kept = new InMemoryClientRegistrationStore();
        dev.omcp.ports.auth.ClientRegistrationStore slow = new dev.omcp.ports.auth.ClientRegistrationStore() {
            @Override
            public void replace(java.util.Set<String> removedClientIds, RegisteredClient client) {
                Thread.yield();
                kept.replace(removedClientIds, client);
            }

            @Override
            public List<RegisteredClient> registrations() {
                return kept.registrations();
            }

            @Override
            public int count() {
                int count = kept.count();
                try {
                    Thread.sleep(1); // holds the window between counting and saving open
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return count;
            }
        };
        int bound = 5;
        int racers = 48;
        DynamicClientRegistrar small = new DynamicClientRegistrar(slow, clock, new SecureRandom(), bound);
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<RegistrationResult>> results = new java.util.ArrayList<>();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(racers)) {
            for (int i = 0; i < racers; i++) {
                String address = "10.0.0." + i;
                results.add(pool.submit(() -> {
                    gate.await();
                    return small.register(metadata(List.of("https://a.example/cb"), "none"), address);
                }));
            }
            gate.countDown();
            long registered = 0;
            for (java.util.concurrent.Future<RegistrationResult> result : results) {
                if (result.get() instanceof RegistrationResult.Registered) {
                    registered++;
                }
            }
            assertThat(registered).isEqualTo(bound);
        }
        assertThat(kept.count()).isEqualTo(bound);
    }
}
