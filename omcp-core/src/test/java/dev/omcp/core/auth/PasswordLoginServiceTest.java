package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.testkit.auth.ConcurrentGuesses;
import dev.omcp.testkit.time.ManualClock;
import dev.omcp.core.testing.Sha512Hasher;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.SessionClaims;
import dev.omcp.ports.auth.UserDirectory;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Spec 5.2 and 3.3: the order of the checks of a password login and what each answers. */
class PasswordLoginServiceTest {
    private static final String IP = "192.0.2.10";
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final Sha512Hasher hasher = new Sha512Hasher();
    private final InMemoryAccountLocks locks = new InMemoryAccountLocks();
    private final SessionService sessions =
            new SessionService(clock, new SecureRandom(), Duration.ofHours(12), new InMemoryRevocationStore(Duration.ofHours(12)));
    private final Map<String, LocalUser> users = Map.of(
            "alice", new LocalUser("alice", "Alice A.", List.of("operator"), hasher.hash("correct horse 1"), "acme"));

    private PasswordLoginService service(Optional<LockoutPolicy> lockout, VerificationSlots slots) {
        return service(lockout, slots, new LoginAttemptsPerAddress());
    }

    private PasswordLoginService service(Optional<LockoutPolicy> lockout, VerificationSlots slots, LoginAttemptsPerAddress perAddress) {
        return new PasswordLoginService(name -> Optional.ofNullable(users.get(name)), hasher, locks, lockout, sessions, clock,
                slots, perAddress, new SecureRandom());
    }

    private PasswordLoginService service() {
        return service(Optional.of(LockoutPolicy.DEFAULT), VerificationSlots.perCore());
    }

    @Test
    void validCredentials_openASessionWithTheUsersRolesAndTenant() {
        LoginResult result = service().login("alice", "correct horse 1", IP);
        SessionClaims claims = ((LoginResult.LoggedIn) result).session();
        assertThat(claims.sub()).isEqualTo("alice");
        assertThat(claims.name()).isEqualTo("Alice A.");
        assertThat(claims.roles()).containsExactly("operator");
        assertThat(claims.tenant()).isEqualTo("acme");
        assertThat(claims.exp() - claims.iat()).isEqualTo(12 * 3600);
    }

    /** Provisioning that deprovisioned {@code deprovisioned} and puts every other name in a group mapped to {@code admin}. */
    private static ProvisionedLogins provisioning(String deprovisioned) {
        return new ProvisionedLogins() {
            @Override
            public Optional<String> refusal(Collection<String> names) {
                return names.contains(deprovisioned) ? Optional.of("deleted by SCIM") : Optional.empty();
            }

            @Override
            public List<String> groupRoles(Collection<String> names) {
                return List.of("admin", "operator");
            }
        };
    }

    private PasswordLoginService provisioned(String deprovisioned) {
        return new PasswordLoginService(name -> Optional.ofNullable(users.get(name)), hasher, locks, Optional.of(LockoutPolicy.DEFAULT),
                sessions, clock, VerificationSlots.perCore(), new LoginAttemptsPerAddress(), new SecureRandom(),
                provisioning(deprovisioned));
    }

    @Test
    void aDeprovisionedUsersRightPassword_isRefused_afterTheSameVerification_andStillCountsAsAFailure() {
        PasswordLoginService service = provisioned("alice");
        int before = hasher.verifications();
        LoginResult result = service.login("alice", "correct horse 1", IP);
        assertThat(result).isInstanceOf(LoginResult.Deprovisioned.class);
        assertThat(((LoginResult.Deprovisioned) result).reason()).isEqualTo("deleted by SCIM");
        assertThat(hasher.verifications()).isEqualTo(before + 1);
        // as a wrong password: the count stays, and enough attempts lock the account (429, as for anyone)
        LoginResult last = result;
        for (int i = 0; i < 10 && !(last instanceof LoginResult.AccountLocked); i++) {
            last = service.login("alice", "correct horse 1", IP);
        }
        assertThat(last).isInstanceOf(LoginResult.AccountLocked.class);
    }

    @Test
    void theRolesOfProvisionedGroups_areAddedToTheUsersFileRoles_once() {
        LoginResult result = provisioned("someone else").login("alice", "correct horse 1", IP);
        assertThat(((LoginResult.LoggedIn) result).session().roles()).containsExactly("operator", "admin");
        // a wrong password of a provisioned user answers as always
        assertThat(provisioned("alice").login("alice", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
    }

    @Test
    void isKnownUser_answersFromTheDirectory_withoutVerifyingAPassword() {
        PasswordLoginService service = service();
        int before = hasher.verifications();
        assertThat(service.isKnownUser("alice")).isTrue();
        assertThat(service.isKnownUser("correct horse 1")).isFalse();
        assertThat(hasher.verifications()).isEqualTo(before);
    }

    @Test
    void wrongPasswordAndUnknownUser_bothAnswerInvalidCredentials_afterExactlyOneVerification() {
        PasswordLoginService service = service();
        int before = hasher.verifications();
        assertThat(service.login("alice", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        assertThat(hasher.verifications()).isEqualTo(before + 1);
        assertThat(service.login("mallory", "whatever", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        // spec 5.2: the unknown user costs one verification against the dummy hash too
        assertThat(hasher.verifications()).isEqualTo(before + 2);
    }

    @Test
    void anUnknownUsernameIsVerifiedAtTheCostMostUsersHashesUse_soItsTimingDoesNotTellTheNameIsUnknown() {
        PasswordHash.Cost older = new PasswordHash.Cost(16384, 8, 1);
        LocalUser bob = new LocalUser("bob", "Bob", List.of("viewer"), hasher.hash("battery staple 9", older), "");
        UserDirectory directory = new UserDirectory() {
            @Override
            public Optional<LocalUser> find(String username) {
                return Optional.of(bob).filter(user -> user.username().equals(username));
            }

            @Override
            public Optional<PasswordHash.Cost> prevailingCost() {
                return Optional.of(older);
            }
        };
        PasswordLoginService service = new PasswordLoginService(directory, hasher, locks, Optional.of(LockoutPolicy.DEFAULT),
                sessions, clock, VerificationSlots.perCore(), new LoginAttemptsPerAddress(), new SecureRandom());
        assertThat(service.login("bob", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        assertThat(hasher.lastVerifiedCost()).isEqualTo(older);
        assertThat(service.login("mallory", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        assertThat(hasher.lastVerifiedCost()).isEqualTo(older);
    }

    @Test
    void anUnknownUsernameIsVerifiedAtTheMintingCost_whenTheDirectoryDoesNotSayWhichCostPrevails() {
        assertThat(service().login("mallory", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        assertThat(hasher.lastVerifiedCost()).isEqualTo(PasswordHash.Cost.MINT);
    }

    @Test
    void theFifthFailureAnswersLocked_andALockedAccountIsRefusedBeforeThePasswordIsHashed() {
        PasswordLoginService service = service();
        for (int i = 0; i < 4; i++) {
            assertThat(service.login("alice", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        }
        LoginResult fifth = service.login("alice", "wrong", IP);
        assertThat(fifth).isEqualTo(new LoginResult.AccountLocked(Duration.ofSeconds(60)));
        int verifications = hasher.verifications();
        clock.advance(Duration.ofSeconds(20));
        // spec 3.3: the lock check happens before the password hash verification, even for the right password
        assertThat(service.login("alice", "correct horse 1", IP)).isEqualTo(new LoginResult.AccountLocked(Duration.ofSeconds(40)));
        assertThat(hasher.verifications()).isEqualTo(verifications);
        clock.advance(Duration.ofSeconds(40));
        assertThat(service.login("alice", "correct horse 1", IP)).isInstanceOf(LoginResult.LoggedIn.class);
    }

    @Test
    void anUnknownUserIsLockedExactlyLikeAKnownOne() {
        PasswordLoginService service = service();
        for (int i = 0; i < 4; i++) {
            service.login("alice", "wrong", IP);
            service.login("ghost", "wrong", IP);
        }
        assertThat(service.login("alice", "wrong", IP)).isEqualTo(service.login("ghost", "wrong", IP));
        clock.advance(Duration.ofSeconds(1));
        assertThat(service.login("alice", "x", IP)).isEqualTo(new LoginResult.AccountLocked(Duration.ofSeconds(59)));
        assertThat(service.login("ghost", "x", IP)).isEqualTo(new LoginResult.AccountLocked(Duration.ofSeconds(59)));
    }

    @Test
    void aSuccessfulLoginClearsTheFailures() {
        PasswordLoginService service = service();
        for (int i = 0; i < 4; i++) {
            service.login("alice", "wrong", IP);
        }
        assertThat(service.login("alice", "correct horse 1", IP)).isInstanceOf(LoginResult.LoggedIn.class);
        for (int i = 0; i < 4; i++) {
            assertThat(service.login("alice", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        }
    }

    @Test
    void withLockoutDisabled_failuresNeverLock() {
        PasswordLoginService service = service(Optional.empty(), VerificationSlots.perCore());
        for (int i = 0; i < 12; i++) {
            clock.advance(Duration.ofSeconds(5));
            assertThat(service.login("alice", "wrong", "192.0.2." + i)).isInstanceOf(LoginResult.InvalidCredentials.class);
        }
        assertThat(locks.size()).isZero();
    }

    @Test
    void twentyAttemptsPerMinutePerAddress_theTwentyFirstIsRefusedWithoutHashing_andTheNextMinuteIsFresh() {
        // spec 8: login per IP 20 per minute (fixed)
        PasswordLoginService service = service();
        for (int i = 0; i < 20; i++) {
            assertThat(service.login("user" + i, "x", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        }
        int verifications = hasher.verifications();
        clock.advance(Duration.ofSeconds(15));
        assertThat(service.login("alice", "correct horse 1", IP)).isEqualTo(new LoginResult.TooManyAttempts(Duration.ofSeconds(45)));
        assertThat(hasher.verifications()).isEqualTo(verifications);
        assertThat(service.login("alice", "correct horse 1", "198.51.100.7")).isInstanceOf(LoginResult.LoggedIn.class);
        clock.advance(Duration.ofSeconds(45));
        assertThat(service.login("alice", "correct horse 1", IP)).isInstanceOf(LoginResult.LoggedIn.class);
    }

    @Test
    void anIpv6ClientRotatingAddressesWithinItsSlash64_isRefusedOnTheTwentyFirstAttempt_withoutHashing() {
        // spec 8: login per IP 20 per minute; an IPv6 client is counted by its /64 (docs/access-control.md)
        PasswordLoginService service = service();
        for (int i = 0; i < 20; i++) {
            assertThat(service.login("user" + i, "x", "2001:db8:5:6::" + Integer.toHexString(i + 1)))
                    .isInstanceOf(LoginResult.InvalidCredentials.class);
        }
        int verifications = hasher.verifications();

        assertThat(service.login("alice", "correct horse 1", "2001:db8:5:6:dead:beef:0:1"))
                .isEqualTo(new LoginResult.TooManyAttempts(Duration.ofSeconds(60)));
        assertThat(hasher.verifications()).isEqualTo(verifications);
        assertThat(service.login("alice", "correct horse 1", "2001:db8:5:7::1")).as("another /64").isInstanceOf(LoginResult.LoggedIn.class);
    }

    @Test
    void aNewAddressWhileTheAddressTableIsFull_isRefusedAsTableFull_notAsRateLimited_withoutHashing() {
        PasswordLoginService service = service(Optional.of(LockoutPolicy.DEFAULT), VerificationSlots.perCore(),
                new LoginAttemptsPerAddress(LoginAttemptsPerAddress.LIMIT, 2));
        assertThat(service.login("alice", "correct horse 1", "192.0.2.1")).isInstanceOf(LoginResult.LoggedIn.class);
        assertThat(service.login("alice", "correct horse 1", "192.0.2.2")).isInstanceOf(LoginResult.LoggedIn.class);
        int verifications = hasher.verifications();

        assertThat(service.login("alice", "correct horse 1", "192.0.2.3"))
                .isEqualTo(new LoginResult.AddressTableFull(LoginAttemptsPerAddress.WINDOW, 2));
        assertThat(hasher.verifications()).isEqualTo(verifications);
        assertThat(locks.size()).as("no failure was counted against the account").isZero();
        assertThat(service.login("alice", "correct horse 1", "192.0.2.1")).as("counted addresses go on").isInstanceOf(LoginResult.LoggedIn.class);
    }

    @Test
    void whenEveryVerificationSlotAndQueuePlaceIsTaken_aLoginIsBusy() throws Exception {
        VerificationSlots slots = new VerificationSlots(1, 0, Duration.ofMillis(50));
        PasswordLoginService service = service(Optional.of(LockoutPolicy.DEFAULT), slots);
        SlotHolder holder = SlotHolder.takeTheOnlySlot(slots);
        assertThat(service.login("alice", "correct horse 1", IP)).isEqualTo(new LoginResult.Busy(Duration.ofSeconds(1)));
        holder.release();
        assertThat(service.login("alice", "correct horse 1", IP)).isInstanceOf(LoginResult.LoggedIn.class);
    }

    @Test
    void aBusyAnswerDoesNotCountAsAFailure() throws Exception {
        VerificationSlots slots = new VerificationSlots(1, 0, Duration.ofMillis(10));
        PasswordLoginService service = service(Optional.of(LockoutPolicy.DEFAULT), slots);
        SlotHolder holder = SlotHolder.takeTheOnlySlot(slots);
        for (int i = 0; i < 6; i++) {
            assertThat(service.login("alice", "wrong", "192.0.2." + i)).isInstanceOf(LoginResult.Busy.class);
        }
        holder.release();
        assertThat(locks.lockedUntil("alice", clock.instant())).isEmpty();
    }

    @Test
    void concurrentWrongGuesses_getNoMorePasswordVerificationsThanTheLockoutAllows() throws Exception {
        // spec 3.3: 5 failures lock the account; guesses sent at once must not all pass the lock check first
        ConcurrentGuesses gate = new ConcurrentGuesses(hasher);
        PasswordLoginService service = new PasswordLoginService(name -> Optional.ofNullable(users.get(name)), gate, locks,
                Optional.of(LockoutPolicy.DEFAULT), sessions, clock, new VerificationSlots(20, 0, Duration.ofSeconds(5)),
                new LoginAttemptsPerAddress(), new SecureRandom());

        ConcurrentGuesses.Outcome outcome = gate.guess(service, "alice", IntStream.range(0, 20).mapToObj(i -> "guess " + i).toList());

        assertThat(outcome.verifications()).isEqualTo(5);
        assertThat(outcome.count(LoginResult.InvalidCredentials.class)).isEqualTo(4);
        assertThat(outcome.count(LoginResult.AccountLocked.class)).as("the locking failure and every refused guess").isEqualTo(16);
        assertThat(locks.lockedUntil("alice", clock.instant())).contains(clock.instant().plusSeconds(60));
    }

    @Test
    void theCorrectPassword_whoseAttemptReachesTheLimit_stillLogsIn_andClearsTheStreak() {
        PasswordLoginService service = service();
        for (int i = 0; i < 4; i++) {
            assertThat(service.login("alice", "wrong", IP)).isInstanceOf(LoginResult.InvalidCredentials.class);
        }
        assertThat(service.login("alice", "correct horse 1", IP)).isInstanceOf(LoginResult.LoggedIn.class);
        assertThat(locks.lockedUntil("alice", clock.instant())).isEmpty();
        assertThat(service.login("alice", "wrong", IP)).as("a new streak").isInstanceOf(LoginResult.InvalidCredentials.class);
    }

    @Test
    void oversizedInputIsAProgrammingErrorOfTheCaller() {
        assertThatThrownBy(() -> service().login("a".repeat(257), "x", IP)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> service().login("alice", "x".repeat(1025), IP)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Holds a verification slot on another thread until released, as a slow verification would. */
    private record SlotHolder(Thread thread, CountDownLatch released) {
        static SlotHolder takeTheOnlySlot(VerificationSlots slots) throws InterruptedException {
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread thread = Thread.ofVirtual().start(() -> slots.run(() -> {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return true;
            }));
            holding.await();
            return new SlotHolder(thread, release);
        }

        void release() throws InterruptedException {
            released.countDown();
            thread.join();
        }
    }
}
