package dev.omcp.ports.auth;

import java.util.Objects;

/** The result of turning an OpenID provider's claims into a session subject. */
public sealed interface MappedIdentity {

    /** The claims name a person; a session may be opened for {@code subject}. */
    record Mapped(SessionSubject subject) implements MappedIdentity {
        public Mapped {
            Objects.requireNonNull(subject, "subject");
        }
    }

    /** The claims cannot make a session, for example without {@code sub}. */
    record Refused(String reason) implements MappedIdentity {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
