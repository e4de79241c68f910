package dev.omcp.ports.auth;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Driven port: what the identity provider's provisioning (SCIM, spec 5.6) says of a login. Both
 * login paths ask it once a person is otherwise admitted: a person the provider deprovisioned is
 * refused, and the roles the provider's groups map to are added to the roles of the login. Without
 * provisioning ({@link #none()}) every login is as the users file or the ID token makes it.
 *
 * <p>A person is looked up by each of the names given (a username; an OpenID subject and its
 * addresses): the caller decides which of its names are trusted for which question.
 *
 * <p>A directory kept in a store shared by replicas may not answer: both methods then throw
 * {@link SharedStateUnavailableException}, and the login is refused (503), never let through unasked.
 */
public interface ProvisionedLogins {

    /**
     * Why a login of the person known by any of {@code names} is refused: the directory holds one of
     * them deactivated, or remembers it as deleted. Empty when none is.
     */
    Optional<String> refusal(Collection<String> names);

    /** The roles the provisioned groups of the person known by any of {@code names} map to, without repeats. */
    List<String> groupRoles(Collection<String> names);

    /** No provisioning: refuses nobody and adds no role. */
    static ProvisionedLogins none() {
        return new ProvisionedLogins() {
            @Override
            public Optional<String> refusal(Collection<String> names) {
                return Optional.empty();
            }

            @Override
            public List<String> groupRoles(Collection<String> names) {
                return List.of();
            }
        };
    }
}
