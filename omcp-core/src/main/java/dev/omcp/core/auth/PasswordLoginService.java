package dev.omcp.core.auth;

import dev.omcp.ports.auth.AccountLocks;
import dev.omcp.ports.auth.FailureOutcome;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.LockoutPolicy;
import dev.omcp.ports.auth.LoginResult;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.PasswordHasher;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.SessionAuthority;
import dev.omcp.ports.auth.SessionSubject;
import dev.omcp.ports.auth.UserDirectory;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Basic-mode login (spec 5.2, 3.3). The order is the security property: the per-address limit,
 * then the account lock, and only then one password verification, against the user's hash or a
 * dummy hash for unknown users. A lock therefore answers without hashing, and an unknown user
 * takes as long and is locked the same way as a known one. The dummy has the cost most users'
 * hashes use ({@link UserDirectory#prevailingCost}), not the minting cost: a users file minted
 * elsewhere at another cost would otherwise make every existing name answer faster or slower than
 * an invented one.
 *
 * <p>Each attempt is counted as a failure before its password is verified, in the same atomic step
 * that checks the lock, and a success clears the count again. Checking first and counting only
 * after a wrong password would let guesses sent at once all pass the check while the first ones
 * are still being verified: with enough of them, far more than {@code maxFailures} passwords of one
 * account would be tried before it locks. The count is taken inside a verification slot, so an
 * attempt answered "busy" is never counted.
 *
 * <p>With SCIM provisioning ({@link ProvisionedLogins}), a right password of a user the identity
 * provider deprovisioned is refused as a wrong one is: the same answer, after the same verification,
 * and still counted as a failure (only a success clears the count), so the refusal tells no more than
 * a wrong password; only {@link LoginResult.Deprovisioned} tells the audit why. The roles the user's
 * provisioned groups map to are added to the users file's roles, for the session this login opens.
 */
public final class PasswordLoginService implements PasswordLogin {
    /** Longest username considered; longer ones are refused by the HTTP adapter. */
    public static final int MAX_USERNAME = 256;
    /** Longest password considered. */
    public static final int MAX_PASSWORD = 1024;
    private static final Duration BUSY_RETRY = Duration.ofSeconds(1);

    private final UserDirectory users;
    private final PasswordHasher hasher;
    private final AccountLocks locks;
    private final Optional<LockoutPolicy> lockout;
    private final SessionAuthority sessions;
    private final Clock clock;
    private final VerificationSlots slots;
    private final LoginAttemptsPerAddress perAddress;
    private final SecureRandom random;
    private final ProvisionedLogins provisioned;
    /** One dummy per cost met; at most one per cost a hash may have, in practice one or two. */
    private final Map<PasswordHash.Cost, PasswordHash> dummies = new ConcurrentHashMap<>();

    /**
     * @param lockout the lockout rule, or empty when {@code OMCP_AUTH_LOCKOUT_DISABLED} is set
     * @param random the source of the dummy hashes
     */
    public PasswordLoginService(
            UserDirectory users,
            PasswordHasher hasher,
            AccountLocks locks,
            Optional<LockoutPolicy> lockout,
            SessionAuthority sessions,
            Clock clock,
            VerificationSlots slots,
            LoginAttemptsPerAddress perAddress,
            SecureRandom random) {
        this(users, hasher, locks, lockout, sessions, clock, slots, perAddress, random, ProvisionedLogins.none());
    }

    /**
     * @param lockout the lockout rule, or empty when {@code OMCP_AUTH_LOCKOUT_DISABLED} is set
     * @param random the source of the dummy hashes
     * @param provisioned what SCIM provisioning says of a login ({@link ProvisionedLogins#none()} without SCIM)
     */
    public PasswordLoginService(
            UserDirectory users,
            PasswordHasher hasher,
            AccountLocks locks,
            Optional<LockoutPolicy> lockout,
            SessionAuthority sessions,
            Clock clock,
            VerificationSlots slots,
            LoginAttemptsPerAddress perAddress,
            SecureRandom random,
            ProvisionedLogins provisioned) {
        this.provisioned = Objects.requireNonNull(provisioned, "provisioned");
        this.users = Objects.requireNonNull(users, "users");
        this.hasher = Objects.requireNonNull(hasher, "hasher");
        this.locks = Objects.requireNonNull(locks, "locks");
        this.lockout = Objects.requireNonNull(lockout, "lockout");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.slots = Objects.requireNonNull(slots, "slots");
        this.perAddress = Objects.requireNonNull(perAddress, "perAddress");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * A hash of {@code cost} no password matches: a random salt and a random key. Verifying against it
     * derives a key with that cost, exactly the work of verifying against a user's hash of that cost.
     */
    private PasswordHash dummy(PasswordHash.Cost cost) {
        return dummies.computeIfAbsent(cost, c -> {
            byte[] salt = new byte[PasswordHash.SALT_BYTES];
            byte[] key = new byte[PasswordHash.HASH_BYTES];
            random.nextBytes(salt);
            random.nextBytes(key);
            return new PasswordHash(c.n(), c.r(), c.p(), salt, key);
        });
    }

    @Override
    public LoginResult login(String username, String password, String clientIp) {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(clientIp, "clientIp");
        if (username.length() > MAX_USERNAME || password.length() > MAX_PASSWORD) {
            throw new IllegalArgumentException("username or password too long; the HTTP adapter must refuse it first");
        }
        Instant now = clock.instant();
        Optional<LoginAttemptsPerAddress.Refusal> addressLimited = perAddress.tryAttempt(clientIp, now);
        if (addressLimited.isPresent()) {
            Duration retryAfter = addressLimited.get().retryAfter();
            return addressLimited.get().tableFull()
                    ? new LoginResult.AddressTableFull(retryAfter, perAddress.capacity())
                    : new LoginResult.TooManyAttempts(retryAfter);
        }
        if (lockout.isPresent()) {
            // a locked account answers without taking a verification slot (a flood against it costs one read each)
            Optional<Instant> lockedUntil = locks.lockedUntil(username, now);
            if (lockedUntil.isPresent()) {
                return new LoginResult.AccountLocked(Duration.between(now, lockedUntil.get()));
            }
        }
        Optional<LocalUser> user = users.find(username);
        PasswordHash expected = user.map(LocalUser::passwordHash)
                .orElseGet(() -> dummy(users.prevailingCost().orElse(PasswordHash.Cost.MINT)));
        Optional<Attempt> attempt = slots.run(() -> countThenVerify(username, password, expected));
        if (attempt.isEmpty()) {
            return new LoginResult.Busy(BUSY_RETRY);
        }
        return switch (attempt.get()) {
            case Attempt.Refused refused -> lockedFor(refused.lockedUntil());
            case Attempt.Verified verified when verified.valid() && user.isPresent() -> {
                Optional<String> deprovisioned = provisioned.refusal(List.of(user.get().username()));
                if (deprovisioned.isPresent()) {
                    // the failure counted for it stays: a wrong password would have left it, and may lock as it does
                    yield verified.lockedByThisFailure().<LoginResult>map(this::lockedFor)
                            .orElseGet(() -> new LoginResult.Deprovisioned(deprovisioned.get()));
                }
                lockout.ifPresent(policy -> locks.clear(username));
                LocalUser found = user.get();
                yield new LoginResult.LoggedIn(sessions.open(
                        new SessionSubject(found.username(), found.name(), withGroupRoles(found), found.tenant())));
            }
            // spec 3.3: the failure that reaches the limit already answers 429.
            case Attempt.Verified verified -> verified.lockedByThisFailure()
                    .<LoginResult>map(this::lockedFor)
                    .orElseGet(LoginResult.InvalidCredentials::new);
        };
    }

    /** The users file's roles, then those the user's provisioned groups add, each once. */
    private List<String> withGroupRoles(LocalUser user) {
        Set<String> roles = new LinkedHashSet<>(user.roles());
        roles.addAll(provisioned.groupRoles(List.of(user.username())));
        return List.copyOf(roles);
    }

    /** The answer for a lock ending at {@code until}; never a negative wait when the verification took longer than the lock. */
    private LoginResult lockedFor(Instant until) {
        Duration left = Duration.between(clock.instant(), until);
        return new LoginResult.AccountLocked(left.isNegative() ? Duration.ZERO : left);
    }

    /**
     * Counts the attempt as a failure (when the lockout is on), then verifies the password unless the
     * account was locked at that moment: the count and the lock check are one atomic step of the store.
     */
    private Attempt countThenVerify(String username, String password, PasswordHash expected) {
        Optional<Instant> lockedByThisFailure = Optional.empty();
        if (lockout.isPresent()) {
            FailureOutcome counted = locks.recordFailure(username, clock.instant(), lockout.get());
            if (counted.failuresInWindow() == 0 && counted.lockedUntil().isPresent()) {
                return new Attempt.Refused(counted.lockedUntil().get());
            }
            lockedByThisFailure = counted.lockedUntil();
        }
        return new Attempt.Verified(hasher.verify(password, expected), lockedByThisFailure);
    }

    /** What became of an attempt inside its verification slot. */
    private sealed interface Attempt {
        /** The account was locked when the attempt was to be counted: no password was verified. */
        record Refused(Instant lockedUntil) implements Attempt {}

        /** The password was verified; the failure counted for it locked the account until then, if it did. */
        record Verified(boolean valid, Optional<Instant> lockedByThisFailure) implements Attempt {}
    }

    @Override
    public boolean isKnownUser(String username) {
        Objects.requireNonNull(username, "username");
        return users.find(username).isPresent();
    }
}
